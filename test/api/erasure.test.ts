import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { inviteBody } from '../helpers/invite';
import { startHttpStub, type HttpStub } from '../helpers/http-stub';
import { historyText } from '../helpers/histories';

const V1 = '/api/public/v1';
const PERSON = { name: 'Zebulon Quillfeather', email: 'zebulon.quillfeather@example.com', phone: '+14155557788' };
const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(2_000, 7)]);

/**
 * Erasure from the black box (docs/erasure.md): the person's calls and interviews stay, counted, with nothing
 * of them; their copies go; the ledger keeps hashes; and no workflow history holds their name, email or phone.
 */
describe('erasing a candidate on the real stack', () => {
  let stack: Stack;
  let receiver: HttpStub;
  beforeAll(async () => {
    receiver = await startHttpStub(() => ({ status: 200 }));
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '0', WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('erases calls, interviews, recordings and every copy, keeps the counts, files hashes, and leaves no trace in histories', async () => {
    const { key } = await stack.newWorkspace('Erasing');
    const req = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      stack.request(method, `${V1}${path}`, { key, body, headers });
    await req('POST', '/webhooks', {
      url: `${receiver.url}/erase`,
      events: ['call.completed', 'interview.invited', 'interview.completed'],
    });
    await req('POST', '/campaigns', { ats_job_id: 'erase-job', name: 'Erase job', company_name: 'Acme' });
    const candidate = { id: 'zq', ...PERSON };
    const script = {
      first_message: 'Hi {{candidate_first_name}}',
      instructions: 'Ask {{candidate_full_name}} ({{candidate_phone}}) about availability.',
    };
    const done = await req(
      'POST',
      '/call/initiate',
      { ats_job_id: 'erase-job', candidates: [candidate], ...script },
      { 'Idempotency-Key': 'erase-1' },
    );
    expect(done.body).toMatchObject({ success: true });
    const doneId = done.body.data.calls[0].id;
    await waitFor(
      () => req('GET', `/calls/${doneId}`),
      (r) => r.body.data.status === 'completed',
      20_000,
    );
    await req('POST', '/campaigns', { ats_job_id: 'erase-later', name: 'Later', company_name: 'Acme' });
    const later = await req('POST', '/call/initiate', {
      ats_job_id: 'erase-later',
      candidates: [candidate],
      ...script,
      schedule_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const laterId = later.body.data.calls[0].id;
    await waitFor(
      () => req('GET', `/calls/${laterId}`),
      (r) => r.body.data.scheduled_for !== null,
    );

    // An interview, taken: a written answer and a recorded one.
    const questions = [
      { question: 'Written?', type: 'text' },
      { question: 'Spoken?', type: 'audio' },
    ];
    const invite = await req(
      'POST',
      '/interview/invite',
      inviteBody([{ id: 'zq', ...PERSON }], { ats_job_id: 'erase-interview', questions }),
    );
    const interviewId = invite.body.data.interviews[0].id;
    const invited = await waitFor(
      () => req('GET', `/interviews/${interviewId}`),
      (r) => r.body.data.status === 'invited',
      20_000,
    );
    const link = invited.body.data.interview_url.replace(stack.config.PUBLIC_BASE_URL, stack.url);
    const form = (path: string, body: string) =>
      fetch(link + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    expect((await form('/start', 'consent=given')).status).toBe(303);
    expect((await form('/answers/0', `answer=${encodeURIComponent(`I am ${PERSON.name}`)}`)).status).toBe(303);
    const upload = await fetch(`${link}/answers/1/recording?duration=3`, {
      method: 'POST',
      headers: { origin: stack.url, 'content-type': 'audio/webm' },
      body: webm,
    });
    expect(upload.status).toBe(200);
    expect((await form('/finish', '')).status).toBe(303);
    await waitFor(
      () => req('GET', `/interviews/${interviewId}`),
      (r) => r.body.data.assessment?.status !== 'pending',
      30_000,
    );

    const erased = await req('POST', '/candidates/erase', { email: PERSON.email.toUpperCase() });
    expect(erased.status).toBe(200);
    // The completed call's one attempt has a copy at the provider (the simulator's own store).
    expect(erased.body).toEqual({
      success: true,
      data: { erasure_id: expect.stringMatching(/^era_/), status: 'erased', calls: 2, interviews: 1, recordings: 1, provider_deletions: 1 },
    });

    // The records stay, counted, with nothing of the person.
    const call = (await req('GET', `/calls/${doneId}`)).body.data;
    expect(call).toMatchObject({ status: 'completed', transcript: null, extracted_variables: null, erased_at: expect.any(String) });
    const cancelled = await waitFor(
      () => req('GET', `/calls/${laterId}`),
      (r) => r.body.data.status === 'cancelled',
      20_000,
    );
    expect(cancelled.body.data.cancel_reason).toBe('opted_out');
    const interview = (await req('GET', `/interviews/${interviewId}`)).body.data;
    expect(interview).toMatchObject({ answers: [], assessment: null, erased_at: expect.any(String) });
    expect((await req('GET', '/projects?ats_job_id=erase-job')).body.data[0].candidates.total).toBe(1);
    expect((await fetch(link)).status).toBe(404);

    // Nothing readable of them anywhere the service keeps a copy.
    const mentions = (text: string) =>
      [PERSON.name, PERSON.email, PERSON.phone, 'Zebulon'].some((v) => text.toLowerCase().includes(v.toLowerCase()));
    for (const list of [
      '/calls',
      '/interviews',
      `/calls?updated_since=${new Date(0).toISOString()}`,
      `/interviews?updated_since=${new Date(0).toISOString()}`,
    ]) {
      expect(mentions(JSON.stringify((await req('GET', list)).body))).toBe(false);
    }
    const db = stack.db;
    // The provider's copy goes through its own workflow, retried until the provider answers.
    await waitFor(
      () => db.db.collection('simulator_calls').countDocuments({ call_id: doneId }),
      (n) => n === 0,
      20_000,
    );
    // Every collection of the stack's database, whatever it holds: claims, logs, snapshots, keys, simulator…
    const collections = (await db.db.listCollections().toArray()).map((c) => c.name).sort();
    expect(collections).toEqual(expect.arrayContaining(['claims', 'simulator_calls', 'webhook_events', 'suppressions']));
    const stored = await Promise.all(collections.map(async (name) => [name, await db.db.collection(name).find({}).toArray()] as const));
    expect(stored.filter(([, docs]) => mentions(JSON.stringify(docs))).map(([name]) => name)).toEqual([]);
    expect(await db.recordings.countDocuments({ interview_id: interviewId })).toBe(0);

    // The ledger keeps hashes only, and they keep the person from being contacted again.
    expect((await req('GET', '/suppressions')).body.data).toEqual([
      expect.objectContaining({ phone: null, email: null, source: 'erasure', channels: ['voice', 'whatsapp', 'email'] }),
    ]);
    const again = await req('POST', '/call/initiate', { ats_job_id: 'erase-job', candidates: [{ ...candidate, id: 'zq-2' }], ...script });
    expect(again.body.data.calls[0]).toMatchObject({ status: 'failed', message: expect.stringMatching(/opted out/) });

    // No workflow history of the service keeps the name, the email or the phone in plain text.
    const histories: string[] = [];
    for await (const wf of stack.temporal.workflow.list({ query: `TaskQueue = '${stack.config.TEMPORAL_TASK_QUEUE}'` })) {
      histories.push(historyText(await stack.temporal.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory()));
    }
    expect(histories.length).toBeGreaterThanOrEqual(4);
    expect(histories.filter(mentions)).toEqual([]);
  }, 120_000);

  it('finds a known candidate by the email it has now, with the calls made under its earlier one', async () => {
    const { key } = await stack.newWorkspace('Moved');
    const req = (method: string, path: string, body?: unknown) => stack.request(method, `${V1}${path}`, { key, body });
    await req('POST', '/campaigns', { ats_job_id: 'moved', name: 'Moved', company_name: 'Acme' });
    const call = async (email: string) => {
      const res = await req('POST', '/call/initiate', {
        ats_job_id: 'moved',
        candidates: [{ id: 'm1', name: 'Mo Ved', email, phone: '+14155556611' }],
        first_message: 'Hi',
        instructions: 'Ask.',
      });
      const id = res.body.data.calls[0].id as string;
      await waitFor(
        () => req('GET', `/calls/${id}`),
        (r) => r.body.data.status === 'completed',
        20_000,
      );
      return id;
    };
    const first = await call('old@example.com');
    const second = await call('new@example.com');
    const erased = await req('POST', '/candidates/erase', { email: 'new@example.com' });
    expect(erased.body.data).toEqual({
      erasure_id: expect.stringMatching(/^era_/),
      status: 'erased',
      calls: 2,
      interviews: 0,
      recordings: 0,
      provider_deletions: 2,
    });
    for (const id of [first, second]) expect((await req('GET', `/calls/${id}`)).body.data.erased_at).toEqual(expect.any(String));
  }, 60_000);

  it('blanks the free-text reason of a suppression the API filed for the person, and keeps the entry in force', async () => {
    const { key } = await stack.newWorkspace('Erasing reasons');
    const req = (method: string, path: string, body?: unknown) => stack.request(method, `${V1}${path}`, { key, body });
    const filed = await req('POST', '/suppressions', { phone: '+14155550991', reason: 'Yara Quint asked on 2026-11-20 not to be called' });
    expect(filed.status).toBe(201);
    expect((await req('POST', '/candidates/erase', { phone: '+14155550991' })).status).toBe(200);
    const entries = (await req('GET', '/suppressions')).body.data as Array<Record<string, unknown>>;
    expect(entries.find((e) => e.source === 'api')).toMatchObject({
      phone: null,
      email: null,
      reason: null,
      channels: filed.body.data.channels,
    });
    expect(JSON.stringify(await stack.db.suppressions.find({}).toArray())).not.toContain('Yara');
    // Still in force: the phone is refused a call.
    await req('POST', '/campaigns', { ats_job_id: 'reasons', name: 'Reasons' });
    const again = await req('POST', '/call/initiate', {
      ats_job_id: 'reasons',
      candidates: [{ id: 'yq', name: 'Someone', email: 'someone@example.com', phone: '+14155550991' }],
      first_message: 'Hi',
      instructions: 'Ask.',
    });
    expect(again.body.data.calls[0]).toMatchObject({ status: 'failed', message: expect.stringMatching(/opted out/) });
  });

  it('refuses a request naming no one with a 400, and answers zeros for someone unknown', async () => {
    const { key } = await stack.newWorkspace('Nobody');
    const none = await stack.request('POST', `${V1}/candidates/erase`, { key, body: {} });
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([{ field: 'candidate_id', message: expect.stringMatching(/no email and no phone/) }]);
    const unknown = await stack.request('POST', `${V1}/candidates/erase`, { key, body: { phone: '+14155550000' } });
    expect(unknown.body).toEqual({
      success: true,
      data: { erasure_id: expect.stringMatching(/^era_/), status: 'erased', calls: 0, interviews: 0, recordings: 0, provider_deletions: 0 },
    });
  });
});
