import { adminCliDatabase, runAdmin } from '../helpers/admin-cli';

/** `admin workspace:update`: a workspace's calling cap, calling window and default zone, as an operator sets them. */
describe('admin CLI: workspace:update', () => {
  const cli = adminCliDatabase();
  const { admin, newWorkspace } = cli;

  it("sets a workspace's calling cap with workspace:update, keeping its other settings", async () => {
    const workspace_id = await newWorkspace('Capped');
    expect((await admin('workspace:update', '--workspace', workspace_id, '--interview-reminders', 'off')).status).toBe(0);
    const capped = await admin('workspace:update', '--workspace', workspace_id, '--max-concurrent-calls', '3');
    // Temporal is asked for the calls waiting for capacity: a new workspace has none.
    expect(capped).toMatchObject({
      status: 0,
      stdout: JSON.stringify({ workspace_id, settings: { max_concurrent_calls: 3 }, waiting_calls_told: 0 }),
    });
    expect((await cli.db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({
      interview_reminders: false,
      max_concurrent_calls: 3,
    });
    for (const bad of ['0', '1001', '2.5', 'ten']) {
      expect((await admin('workspace:update', '--workspace', workspace_id, '--max-concurrent-calls', bad)).status).toBe(2);
    }
    expect((await admin('workspace:update', '--workspace', workspace_id)).status).toBe(2);
    expect((await cli.db.workspaces.findOne({ _id: workspace_id }))?.settings?.max_concurrent_calls).toBe(3);
  });

  it("sets and clears a workspace's calling window and default zone with workspace:update, refusing bad ones", async () => {
    const workspace_id = await newWorkspace('Windowed');
    const set = await admin(
      'workspace:update',
      '--workspace',
      workspace_id,
      '--calling-window',
      '08:00-21:00',
      '--default-timezone',
      'America/Chicago',
    );
    expect(set.status).toBe(0);
    expect((await cli.db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({
      calling_window: { start: '08:00', end: '21:00' },
      default_timezone: 'America/Chicago',
    });
    for (const bad of [
      ['--calling-window', '21:00-08:00'],
      ['--calling-window', '09:00-09:00'],
      ['--calling-window', '8-21'],
      ['--default-timezone', 'Mars/Base'],
    ]) {
      const res = await admin('workspace:update', '--workspace', workspace_id, ...bad);
      expect(res.status).toBe(2);
      expect(res.stderr).toContain(bad[0]);
    }
    expect((await admin('workspace:update', '--workspace', workspace_id, '--calling-window', 'off')).status).toBe(0);
    expect((await cli.db.workspaces.findOne({ _id: workspace_id }))?.settings).toMatchObject({
      calling_window: null,
      default_timezone: 'America/Chicago',
    });
  });

  it('still sets the cap when Temporal cannot be reached, and says the waiting calls were not told', async () => {
    const workspace_id = await newWorkspace('Offline');
    const res = await runAdmin(
      { ...cli.env, TEMPORAL_ADDRESS: '127.0.0.1:1' },
      'workspace:update',
      '--workspace',
      workspace_id,
      '--max-concurrent-calls',
      '4',
    );
    expect(res).toMatchObject({
      status: 0,
      stdout: JSON.stringify({ workspace_id, settings: { max_concurrent_calls: 4 }, waiting_calls_told: null }),
    });
    expect(res.stderr).toMatch(/^warning: the cap is set, but the calls waiting for capacity were not told .*within 19 s\n$/);
    expect((await cli.db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({ max_concurrent_calls: 4 });
  }, 30_000);
});
