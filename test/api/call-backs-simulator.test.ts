import { startStack, TEST_PERSON_HASH_SECRET, type Stack } from '../helpers/stack';
import { runAdmin } from '../helpers/admin-cli';
import { waitFor } from '../helpers/wait';

/**
 * The operator's side of numbers and call-backs through the admin CLI, run as a process of its own against a
 * real stack: `workspace:update` gives a workspace its numbers (one workspace per number), and
 * `simulate:call-back` plays a candidate calling one back through the simulator (docs/calls.md).
 */
describe('admin CLI: numbers and simulate:call-back', () => {
  let stack: Stack;
  let env: Record<string, string | undefined>;
  const admin = (...args: string[]) => runAdmin(env, ...args);
  const json = (run: { stdout: string }) => JSON.parse(run.stdout);

  beforeAll(async () => {
    // The service's own numbers, as an operator sets them for the service (not for the admin CLI's shell).
    stack = await startStack({
      worker: true,
      env: { SIMULATOR_CALL_SECONDS: '1', VAPI_PHONE_NUMBER_ID: 'svc-voice', WHATSAPP_PHONE_NUMBER_ID: 'svc-wa' },
    });
    env = {
      MONGODB_URI: stack.config.MONGODB_URI,
      MONGODB_DB: stack.config.MONGODB_DB,
      TEMPORAL_ADDRESS: stack.config.TEMPORAL_ADDRESS,
      TEMPORAL_NAMESPACE: stack.config.TEMPORAL_NAMESPACE,
      TEMPORAL_TASK_QUEUE: stack.config.TEMPORAL_TASK_QUEUE,
      PERSON_HASH_SECRET: TEST_PERSON_HASH_SECRET,
      SIMULATOR_CALL_SECONDS: '1',
    };
  }, 120_000);
  afterAll(() => stack?.stop());

  it('gives a workspace its numbers, refuses one another workspace holds, and gives a number up when it changes', async () => {
    const a = await stack.newWorkspace('Numbered');
    const b = await stack.newWorkspace('Second');
    const set = await admin(
      'workspace:update',
      '--workspace',
      a.id,
      '--vapi-phone-number-id',
      'num-a',
      '--whatsapp-phone-number-id',
      'wa-a',
      '--email-from',
      'Numbered Hiring <hiring@numbered.example>',
    );
    expect(set.status).toBe(0);
    expect(json(set)).toEqual({
      workspace_id: a.id,
      settings: {},
      numbers: { voice: 'num-a', whatsapp: 'wa-a', email_from: { email: 'hiring@numbered.example', name: 'Numbered Hiring' } },
    });
    const taken = await admin('workspace:update', '--workspace', b.id, '--vapi-phone-number-id', 'num-a');
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain(`that voice number belongs to workspace ${a.id}`);
    expect((await stack.db.workspaces.findOne({ _id: b.id }))?.numbers).toBeUndefined();
    // Refused for one number, it keeps none of the others it asked for.
    const half = await admin(
      'workspace:update',
      '--workspace',
      b.id,
      '--vapi-phone-number-id',
      'num-b',
      '--whatsapp-phone-number-id',
      'wa-a',
    );
    expect(half.status).toBe(1);
    expect(await stack.stores.workspaces.ofNumber('voice', 'num-b')).toBeNull();
    for (const bad of [
      ['--vapi-phone-number-id', 'has spaces'],
      ['--email-from', 'Name <not an address>'],
      ['--email-from', 'Bad\nName <a@b.example>'],
    ]) {
      expect((await admin('workspace:update', '--workspace', b.id, ...bad)).status).toBe(2);
    }
    // A new number for A frees its old one, which B can then take; `default` gives the service's back.
    expect((await admin('workspace:update', '--workspace', a.id, '--vapi-phone-number-id', 'num-a2')).status).toBe(0);
    expect((await admin('workspace:update', '--workspace', b.id, '--vapi-phone-number-id', 'num-a')).status).toBe(0);
    expect((await admin('workspace:update', '--workspace', a.id, '--email-from', 'default')).status).toBe(0);
    const shown = await stack.request('GET', '/api/public/v1/workspace', { key: a.key });
    expect(shown.body.data.numbers).toEqual({ voice: 'num-a2', whatsapp: 'wa-a', email_from: 'interviews@example.com' });
    expect(await stack.stores.workspaces.ofNumber('voice', 'num-a')).toBe(b.id);
    expect(await stack.stores.workspaces.ofNumber('voice', 'num-a2')).toBe(a.id);
  });

  it("refuses the service's own numbers for one workspace, and two changes of one workspace's numbers at once leave no claim its document does not name", async () => {
    const w = await stack.newWorkspace('Own numbers');
    const withService = { ...env, VAPI_PHONE_NUMBER_ID: 'svc-voice', WHATSAPP_PHONE_NUMBER_ID: 'svc-wa' };
    // Whatever the CLI's own environment holds: with the service's numbers, and without them (the service
    // claimed them as it started).
    for (const cli of [withService, env])
      for (const [option, value] of [
        ['--vapi-phone-number-id', 'svc-voice'],
        ['--whatsapp-phone-number-id', 'svc-wa'],
      ]) {
        const refused = await runAdmin(cli, 'workspace:update', '--workspace', w.id, option, value);
        expect(refused.status).toBe(2);
        expect(refused.stderr).toContain("the service's own number");
      }
    expect(await stack.stores.workspaces.ofNumber('voice', 'svc-voice')).toBeNull();
    expect(await stack.stores.workspaces.ofNumber('whatsapp', 'svc-wa')).toBeNull();

    // Ten changes at once, each to a number of its own: one stands, and only it is claimed.
    const tries = Array.from({ length: 10 }, (_, i) => `race-${i}`);
    const results = await Promise.all(tries.map((n) => stack.stores.workspaces.setNumbers(w.id, { voice: n })));
    expect(results.every((r) => r.set)).toBe(true);
    const doc = await stack.db.workspaces.findOne({ _id: w.id });
    const owners = await Promise.all(tries.map((n) => stack.stores.workspaces.ofNumber('voice', n)));
    expect(tries.filter((_, i) => owners[i] !== null)).toEqual([doc!.numbers!.voice]);
  });

  it('plays a call-back with simulate:call-back: the call waiting for its retry completes as an inbound attempt', async () => {
    const w = await stack.newWorkspace('Calling back');
    expect((await admin('workspace:update', '--workspace', w.id, '--vapi-phone-number-id', 'sim-voice-w')).status).toBe(0);
    await stack.request('POST', '/api/public/v1/campaigns', { key: w.key, body: { ats_job_id: 'job-cb', name: 'Call-backs' } });
    const res = await stack.request('POST', '/api/public/v1/call/initiate', {
      key: w.key,
      body: {
        ats_job_id: 'job-cb',
        candidates: [
          {
            id: 'cb-1',
            name: 'Cal Back',
            email: 'cal@example.com',
            phone: '+14155557001',
            custom_fields: { simulated_outcomes: 'missed' },
          },
        ],
        first_message: 'Hi Cal',
        instructions: 'Ask about availability.',
        extract_variables: [{ label: 'available', type: 'boolean', description: 'Available?' }],
        call_settings: { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 2, unit: 'hours' }] } },
      },
    });
    const callId = res.body.data.calls[0].id as string;
    const get = () => stack.request('GET', `/api/public/v1/calls/${callId}`, { key: w.key }).then((r) => r.body.data);
    await waitFor(get, (c) => c.status === 'scheduled' && c.attempts.length === 1 && c.next_attempt_at !== null, 30_000);

    expect(json(await admin('simulate:call-back', '--from', '+14155557999', '--to', 'sim-voice-w'))).toEqual({
      answered: 'nothing_pending',
      why: 'no_call',
    });
    const played = await admin('simulate:call-back', '--from', '+14155557001', '--to', 'sim-voice-w');
    expect(played.status).toBe(0);
    expect(json(played)).toMatchObject({ answered: 'call', call_id: callId, attempt: 2, report_in_seconds: 1 });
    // The gate names the company, not the person; the simulated caller gives the candidate's own name.
    expect(json(played)).toMatchObject({ identity: 'confirmed' });
    expect(json(played).first_message).toContain('Thank you for calling Calling back Inc back. Before we go on, may I have your full name');
    expect(json(played).first_message).not.toContain('Cal Back');
    const done = await waitFor(get, (c) => c.status === 'completed', 30_000);
    expect(done.attempts).toMatchObject([
      { number: 1, direction: 'outbound', outcome: 'failed', failure_reason: 'missed' },
      { number: 2, direction: 'inbound', outcome: 'completed' },
    ]);
    expect(done.extracted_variables).toEqual({ available: true });
    expect((await admin('simulate:call-back', '--from', 'not-a-number', '--to', 'sim-voice-w')).status).toBe(2);
  }, 60_000);

  it('shows the same rules with simulate:call-back: a call never dialled has nothing pending, and a stranger who gives another name leaves the call waiting for its retry', async () => {
    const w = await stack.newWorkspace('Strangers');
    expect((await admin('workspace:update', '--workspace', w.id, '--vapi-phone-number-id', 'sim-voice-s')).status).toBe(0);
    await stack.request('POST', '/api/public/v1/campaigns', { key: w.key, body: { ats_job_id: 'job-st', name: 'Strangers' } });
    const initiate = (id: string, phone: string, settings: Record<string, unknown>) =>
      stack.request('POST', '/api/public/v1/call/initiate', {
        key: w.key,
        body: {
          ats_job_id: 'job-st',
          candidates: [{ id, name: 'Stella Known', email: `${id}@example.com`, phone, custom_fields: { simulated_outcomes: 'missed' } }],
          first_message: 'Hi Stella',
          instructions: 'Ask about availability.',
          extract_variables: [{ label: 'available', type: 'boolean', description: 'Available?' }],
          ...settings,
        },
      });
    const scheduled = await initiate('st-1', '+14155557101', { schedule_at: new Date(Date.now() + 3 * 3_600_000).toISOString() });
    expect(scheduled.body).toMatchObject({ success: true, data: { calls: [{ status: 'success' }] } });
    expect(json(await admin('simulate:call-back', '--from', '+14155557101', '--to', 'sim-voice-s'))).toEqual({
      answered: 'nothing_pending',
      why: 'never_dialled',
    });

    const res = await initiate('st-2', '+14155557102', {
      call_settings: { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 2, unit: 'hours' }] } },
    });
    const callId = res.body.data.calls[0].id as string;
    const get = () => stack.request('GET', `/api/public/v1/calls/${callId}`, { key: w.key }).then((r) => r.body.data);
    const missed = await waitFor(get, (c) => c.status === 'scheduled' && c.attempts.length === 1 && c.next_attempt_at !== null, 30_000);
    const played = await admin('simulate:call-back', '--from', '+14155557102', '--to', 'sim-voice-s', '--caller-name', 'Sam Stranger');
    expect(json(played)).toMatchObject({ answered: 'call', call_id: callId, attempt: 2, identity: 'not_confirmed' });
    const after = await waitFor(get, (c) => c.attempts.length === 2 && c.attempts[1].outcome !== null && c.status === 'scheduled', 30_000);
    expect(after.attempts[1]).toMatchObject({ direction: 'inbound', outcome: 'failed', failure_reason: 'call_back_incomplete' });
    expect(after).toMatchObject({ next_attempt_at: missed.next_attempt_at, extracted_variables: null, transcript: null });
    // The simulator reported what Vapi would: a value extracted from the gate's own transcript, and a "screened"
    // evaluation. Only the server's record of who was confirmed kept it from completing the call; and the
    // simulator's copy of the call is deleted, as Vapi's would be.
    const report = await stack.db.callReports.findOne({ _id: `${callId}/2` });
    expect(report).toMatchObject({ result: 'call_back_incomplete', transcript: null, extracted_json: 'null' });
    const inbound = report!.provider_call_id!;
    await waitFor(
      () => stack.db.db.collection('simulator_calls').findOne({ _id: inbound as never }),
      (copy) => copy === null,
      30_000,
    );
  }, 60_000);
});
