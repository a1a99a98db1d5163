import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { connectDatabase, type Database } from '../../infra/database';
import { authenticate } from '../../infra/workspaces';
import { uniqueName } from '../helpers/stack';

const dbName = uniqueName('admin');
function admin(...args: string[]) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '../../scripts/admin.ts'), ...args], {
    env: { PATH: process.env.PATH, MONGODB_URI: process.env.TEST_MONGODB_URI, MONGODB_DB: dbName },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: res.status, stdout: res.stdout.trim(), stderr: res.stderr };
}

describe('admin CLI', () => {
  let db: Database;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, dbName);
  });
  afterAll(async () => {
    await db.db.dropDatabase();
    await db.close();
  });

  it('creates a workspace, adds and revokes keys, each printing one JSON line', async () => {
    const created = admin(
      'workspace:create',
      '--name',
      'Acme',
      '--company',
      'Acme Inc',
      '--sender-first-name',
      'Ada',
      '--sender-last-name',
      'Lovelace',
    );
    expect(created.status).toBe(0);
    expect(created.stdout.split('\n')).toHaveLength(1);
    const { workspace_id, api_key } = JSON.parse(created.stdout);
    expect(api_key).toMatch(/^hk_[A-Za-z0-9_-]{43}$/); // 32 random bytes
    expect((await authenticate(db, api_key))?.sender).toEqual({ first_name: 'Ada', last_name: 'Lovelace', company: 'Acme Inc' });

    const second = admin('apikey:create', '--workspace', workspace_id);
    expect(second.status).toBe(0);
    const secondKey = JSON.parse(second.stdout).api_key;
    expect(Object.keys(JSON.parse(second.stdout))).toEqual(['api_key']);
    expect(secondKey).not.toBe(api_key);

    expect(admin('apikey:revoke', '--key', api_key)).toMatchObject({ status: 0, stdout: '{"revoked":true}' });
    expect(await authenticate(db, api_key)).toBeNull();
    expect((await authenticate(db, secondKey))?._id).toBe(workspace_id);
    expect(admin('apikey:revoke', '--key', api_key).status).toBe(1);
  });

  it("turns a workspace's interview reminders off and on again", async () => {
    const { workspace_id } = JSON.parse(
      admin('workspace:create', '--name', 'Quiet', '--company', 'Quiet Co', '--sender-first-name', 'Q', '--sender-last-name', 'Uiet')
        .stdout,
    );
    const off = admin('workspace:settings', '--workspace', workspace_id, '--interview-reminders', 'off');
    expect(off).toMatchObject({ status: 0, stdout: JSON.stringify({ workspace_id, settings: { interview_reminders: false } }) });
    expect((await db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({ interview_reminders: false });
    expect(admin('workspace:settings', '--workspace', workspace_id, '--interview-reminders', 'on').status).toBe(0);
    expect((await db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({ interview_reminders: true });
    expect(admin('workspace:settings', '--workspace', workspace_id, '--interview-reminders', 'maybe').status).toBe(2);
    expect(admin('workspace:settings', '--workspace', 'ws_nope', '--interview-reminders', 'off')).toMatchObject({
      status: 1,
      stderr: 'error: no such workspace\n',
    });
  });

  it("sets a workspace's calling cap with workspace:update, keeping its other settings", async () => {
    const { workspace_id } = JSON.parse(
      admin('workspace:create', '--name', 'Capped', '--company', 'Capped Co', '--sender-first-name', 'C', '--sender-last-name', 'Apped')
        .stdout,
    );
    expect(admin('workspace:update', '--workspace', workspace_id, '--interview-reminders', 'off').status).toBe(0);
    const capped = admin('workspace:update', '--workspace', workspace_id, '--max-concurrent-calls', '3');
    expect(capped).toMatchObject({ status: 0, stdout: JSON.stringify({ workspace_id, settings: { max_concurrent_calls: 3 } }) });
    expect((await db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({ interview_reminders: false, max_concurrent_calls: 3 });
    for (const bad of ['0', '1001', '2.5', 'ten']) {
      expect(admin('workspace:update', '--workspace', workspace_id, '--max-concurrent-calls', bad).status).toBe(2);
    }
    expect(admin('workspace:update', '--workspace', workspace_id).status).toBe(2);
    expect((await db.workspaces.findOne({ _id: workspace_id }))?.settings?.max_concurrent_calls).toBe(3);
  });

  it('explains usage errors with exit code 2', () => {
    const res = admin('workspace:create', '--name', 'Only');
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('missing --company, --sender-first-name, --sender-last-name');
    expect(admin('apikey:create', '--workspace', 'ws_nope').status).toBe(1);
  });
});
