import { connectDatabase, type Database } from '../../infra/database';
import { adminStores, walkingStores } from '../../composition/stores';
import { TEST_CONTACT_SECRET, testConfig } from '../helpers/stack';
import { callDoc } from '../helpers/call-doc';
import { interviewDoc, projectDoc } from '../helpers/interview-doc';
import { runAdmin } from '../helpers/admin-cli';
import { uniqueName } from '../helpers/stack';

const dbName = uniqueName('admin');
const env = {
  MONGODB_URI: process.env.TEST_MONGODB_URI,
  MONGODB_DB: dbName,
  TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
  // The services' own secret, as an operator gives the admin CLI the service's settings.
  CONTACT_HASH_SECRET: TEST_CONTACT_SECRET,
};
const admin = (...args: string[]) => runAdmin(env, ...args);
/** A new workspace's id, made with the CLI. */
const newWorkspace = async (name: string): Promise<string> =>
  JSON.parse(
    (await admin('workspace:create', '--name', name, '--company', `${name} Co`, '--sender-first-name', 'A', '--sender-last-name', 'B'))
      .stdout,
  ).workspace_id;

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
    const created = await admin(
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
    expect((await adminStores(db).workspaces.authenticate(api_key))?.sender).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      company: 'Acme Inc',
    });

    const second = await admin('apikey:create', '--workspace', workspace_id);
    expect(second.status).toBe(0);
    const secondKey = JSON.parse(second.stdout).api_key;
    expect(Object.keys(JSON.parse(second.stdout))).toEqual(['api_key']);
    expect(secondKey).not.toBe(api_key);

    expect(await admin('apikey:revoke', '--key', api_key)).toMatchObject({ status: 0, stdout: '{"revoked":true}' });
    expect(await adminStores(db).workspaces.authenticate(api_key)).toBeNull();
    expect((await adminStores(db).workspaces.authenticate(secondKey))?._id).toBe(workspace_id);
    expect((await admin('apikey:revoke', '--key', api_key)).status).toBe(1);
  });

  it("turns a workspace's interview reminders off and on again", async () => {
    const workspace_id = await newWorkspace('Quiet');
    const off = await admin('workspace:settings', '--workspace', workspace_id, '--interview-reminders', 'off');
    expect(off).toMatchObject({ status: 0, stdout: JSON.stringify({ workspace_id, settings: { interview_reminders: false } }) });
    expect((await db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({ interview_reminders: false });
    expect((await admin('workspace:settings', '--workspace', workspace_id, '--interview-reminders', 'on')).status).toBe(0);
    expect((await db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({ interview_reminders: true });
    expect((await admin('workspace:settings', '--workspace', workspace_id, '--interview-reminders', 'maybe')).status).toBe(2);
    expect(await admin('workspace:settings', '--workspace', 'ws_nope', '--interview-reminders', 'off')).toMatchObject({
      status: 1,
      stderr: 'error: no such workspace\n',
    });
  });

  it("sets a workspace's calling cap with workspace:update, keeping its other settings", async () => {
    const workspace_id = await newWorkspace('Capped');
    expect((await admin('workspace:update', '--workspace', workspace_id, '--interview-reminders', 'off')).status).toBe(0);
    const capped = await admin('workspace:update', '--workspace', workspace_id, '--max-concurrent-calls', '3');
    // Temporal is asked for the calls waiting for capacity: a new workspace has none.
    expect(capped).toMatchObject({
      status: 0,
      stdout: JSON.stringify({ workspace_id, settings: { max_concurrent_calls: 3 }, waiting_calls_told: 0 }),
    });
    expect((await db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({ interview_reminders: false, max_concurrent_calls: 3 });
    for (const bad of ['0', '1001', '2.5', 'ten']) {
      expect((await admin('workspace:update', '--workspace', workspace_id, '--max-concurrent-calls', bad)).status).toBe(2);
    }
    expect((await admin('workspace:update', '--workspace', workspace_id)).status).toBe(2);
    expect((await db.workspaces.findOne({ _id: workspace_id }))?.settings?.max_concurrent_calls).toBe(3);
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
    expect((await db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({
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
    expect((await db.workspaces.findOne({ _id: workspace_id }))?.settings).toMatchObject({
      calling_window: null,
      default_timezone: 'America/Chicago',
    });
  });

  it('still sets the cap when Temporal cannot be reached, and says the waiting calls were not told', async () => {
    const workspace_id = await newWorkspace('Offline');
    const res = await runAdmin(
      { ...env, TEMPORAL_ADDRESS: '127.0.0.1:1' },
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
    expect((await db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({ max_concurrent_calls: 4 });
  }, 30_000);

  it('explains usage errors with exit code 2', async () => {
    const res = await admin('workspace:create', '--name', 'Only');
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('missing --company, --sender-first-name, --sender-last-name');
    expect((await admin('apikey:create', '--workspace', 'ws_nope')).status).toBe(1);
  });

  it('people:index files calls and interviews made before the person index, so an erasure finds them', async () => {
    const ws = await newWorkspace('Legacy');
    const stores = walkingStores(db, testConfig());
    // As stored before the person index and keyed email claims: no candidate record, a claim named by the address.
    const call = callDoc('call_legacy01', { workspace_id: ws, project_id: 'prj_calls', candidate_id: 'old-1', status: 'completed' });
    call.candidate = { name: 'Old Timer', email: 'old.timer@example.com', phone: '+14155550166', custom_fields: {} };
    const interview = interviewDoc('int_legacy01', projectDoc('prj_ints', ws));
    interview.candidate = { name: 'Old Timer', email: 'old.timer@example.com', phone: null };
    await db.calls.insertOne(call);
    await db.interviews.insertOne(interview);
    await db.claims.insertOne({
      _id: 'email/prj_ints/old.timer@example.com',
      holder: interview.candidate_id,
      expires_at: null,
      created_at: new Date(),
    });
    expect(await stores.candidates.findPerson(ws, { email: 'old.timer@example.com' })).toEqual({ calls: [], interviews: [] });

    const run = await admin('people:index', '--workspace', ws);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ calls: 1, interviews: 1, skipped: 0 });
    expect(await stores.candidates.findPerson(ws, { email: 'OLD.timer@example.com'.toLowerCase() })).toEqual({
      calls: [call._id],
      interviews: [interview._id],
    });
    expect(await stores.candidates.findPerson(ws, { phone: '+14155550166' })).toEqual({ calls: [call._id], interviews: [] });
    expect(await db.claims.findOne({ _id: 'email/prj_ints/old.timer@example.com' })).toBeNull();
    expect(await db.claims.findOne({ _id: await stores.candidates.emailClaimId('prj_ints', 'old.timer@example.com') })).toMatchObject({
      holder: interview.candidate_id,
    });
    // Again: nothing changes.
    expect(JSON.parse((await admin('people:index', '--workspace', ws)).stdout)).toEqual({ calls: 1, interviews: 1, skipped: 0 });
  });
});
