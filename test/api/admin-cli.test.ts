import { adminStores, walkingStores } from '../../composition/admin-stores';
import { testConfig } from '../helpers/stack';
import { callDoc } from '../helpers/call-doc';
import { interviewDoc, projectDoc } from '../helpers/interview-doc';
import { adminCliDatabase } from '../helpers/admin-cli';

/** The admin CLI as an operator runs it: workspaces, keys, usage errors, people:index (workspace:update is admin-cli-workspace-update.test.ts). */
describe('admin CLI', () => {
  const cli = adminCliDatabase();
  const { admin, newWorkspace } = cli;

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
    expect((await adminStores(cli.db).workspaces.authenticate(api_key))?.sender).toEqual({
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
    expect(await adminStores(cli.db).workspaces.authenticate(api_key)).toBeNull();
    expect((await adminStores(cli.db).workspaces.authenticate(secondKey))?._id).toBe(workspace_id);
    expect((await admin('apikey:revoke', '--key', api_key)).status).toBe(1);
  });

  it("turns a workspace's interview reminders off and on again", async () => {
    const workspace_id = await newWorkspace('Quiet');
    const off = await admin('workspace:settings', '--workspace', workspace_id, '--interview-reminders', 'off');
    expect(off).toMatchObject({ status: 0, stdout: JSON.stringify({ workspace_id, settings: { interview_reminders: false } }) });
    expect((await cli.db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({ interview_reminders: false });
    expect((await admin('workspace:settings', '--workspace', workspace_id, '--interview-reminders', 'on')).status).toBe(0);
    expect((await cli.db.workspaces.findOne({ _id: workspace_id }))?.settings).toEqual({ interview_reminders: true });
    expect((await admin('workspace:settings', '--workspace', workspace_id, '--interview-reminders', 'maybe')).status).toBe(2);
    expect(await admin('workspace:settings', '--workspace', 'ws_nope', '--interview-reminders', 'off')).toMatchObject({
      status: 1,
      stderr: 'error: no such workspace\n',
    });
  });

  it('explains usage errors with exit code 2', async () => {
    const res = await admin('workspace:create', '--name', 'Only');
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('missing --company, --sender-first-name, --sender-last-name');
    expect((await admin('apikey:create', '--workspace', 'ws_nope')).status).toBe(1);
  });

  it('people:index files calls and interviews made before the person index, so an erasure finds them', async () => {
    const ws = await newWorkspace('Legacy');
    const stores = walkingStores(cli.db, testConfig());
    // As stored before the person index and keyed email claims: no candidate record, a claim named by the address.
    const call = callDoc('call_legacy01', { workspace_id: ws, project_id: 'prj_calls', candidate_id: 'old-1', status: 'completed' });
    call.candidate = { name: 'Old Timer', email: 'old.timer@example.com', phone: '+14155550166', custom_fields: {} };
    const interview = interviewDoc('int_legacy01', projectDoc('prj_ints', ws));
    interview.candidate = { name: 'Old Timer', email: 'old.timer@example.com', phone: null };
    await cli.db.calls.insertOne(call);
    await cli.db.interviews.insertOne(interview);
    await cli.db.claims.insertOne({
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
    expect(await cli.db.claims.findOne({ _id: 'email/prj_ints/old.timer@example.com' })).toBeNull();
    expect(await cli.db.claims.findOne({ _id: await stores.candidates.emailClaimId('prj_ints', 'old.timer@example.com') })).toMatchObject({
      holder: interview.candidate_id,
    });
    // Again: nothing changes.
    expect(JSON.parse((await admin('people:index', '--workspace', ws)).stdout)).toEqual({ calls: 1, interviews: 1, skipped: 0 });
  });
});
