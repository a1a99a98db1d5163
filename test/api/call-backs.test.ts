import { realProvidersBench, candidate, fallback, preCall, VAPI_EVENTS } from '../helpers/real-providers-bench';
import { waitFor } from '../helpers/wait';
import type { WorkspaceSettings } from '../../infra/documents/workspaces';
import {
  assistantRequest,
  endOfCallReport,
  identityToolCall,
  inboundTextWebhook,
  VAPI_PHONE_NUMBER_ID,
  WA_PHONE_NUMBER_ID,
} from '../helpers/provider-wire';
import { inviteBody, inviteCandidate } from '../helpers/invite';

/**
 * Each workspace's own numbers, and a candidate's call-back to its voice number (docs/calls.md), on the real API,
 * worker, database and Temporal, with the Vapi and WhatsApp Cloud adapters against local servers that speak
 * their wire formats. Vapi's messages are played as Vapi sends them, signed.
 */
describe("a workspace's own numbers, and call-backs to them", () => {
  const bench = realProvidersBench();
  const { post, signedVapi, signedWa, dialOf, providerCallIdOf, call, start } = bench;
  const VOICE = 'vapi-number-acme';
  const WHATSAPP = 'wa-number-acme';
  const retryIn2Hours = { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 2, unit: 'hours' }] } };
  /** Every assistant-request's time to answer, the longest checked at the end against Vapi's need (3 s here). */
  const answerTimes: number[] = [];

  beforeAll(async () => {
    const set = await bench.stack.stores.workspaces.setNumbers(bench.workspaceId, {
      voice: VOICE,
      whatsapp: WHATSAPP,
      email_from: { email: 'jobs@acme.example', name: 'Acme Hiring' },
    });
    expect(set).toEqual({ set: true });
  });
  afterAll(() => {
    expect(Math.max(...answerTimes)).toBeLessThan(3_000);
  });

  /** An assistant-request for a call to `numberId` from `from`, signed, with the time its answer took. */
  async function callIn(numberId: string, from: string, providerCallId?: string) {
    const started = Date.now();
    const res = await signedVapi(assistantRequest({ numberId, from, providerCallId }));
    answerTimes.push(Date.now() - started);
    expect(res.status).toBe(200);
    return res.body as { assistant: Record<string, any> };
  }
  const nothingPending = (answer: { assistant: Record<string, any> }) => {
    expect(answer.assistant.firstMessage).toMatch(/^Thank you for calling\. There is nothing pending for this number/);
    // Its report only has the provider's copy deleted; nothing is recorded or transcribed.
    expect(answer.assistant.serverMessages).toEqual(['end-of-call-report']);
    expect(answer.assistant.metadata).toEqual({ call_back: 'nothing_pending' });
    expect(answer.assistant.artifactPlan).toEqual({ recordingEnabled: false, transcriptPlan: { enabled: false } });
    expect(JSON.stringify(answer)).not.toMatch(/Grace|Acme|call_(?!back)/);
  };
  /** The gate's identity tool, called with `name` on the inbound call: its one result. */
  async function identify(callId: string, attempt: number, providerCallId: string, name: string, asText = false) {
    const res = await signedVapi(identityToolCall({ callId, attempt, providerCallId, name, asText }));
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0]).toMatchObject({ name: 'confirm_identity', toolCallId: expect.stringMatching(/^toolcall_/) });
    return res.body.results[0].result as string;
  }
  /** The call once its workflow has recorded the call-back `providerCallId` as attempt `attempt`. */
  const recorded = (callId: string, attempt: number, providerCallId: string) =>
    waitFor(
      () => bench.stack.db.calls.findOne({ _id: callId }),
      (c) => c?.attempts[attempt - 1]?.provider_call_id === providerCallId,
    );
  /** A call of the bench's workspace whose first dial was missed: it waits two hours for its retry. */
  async function waitingForRetry(i: number, settings: Record<string, unknown> = {}) {
    const callId = await start(i, { ...retryIn2Hours, ...settings });
    const providerCallId = await providerCallIdOf(callId);
    expect((await signedVapi(endOfCallReport({ callId, attempt: 1, providerCallId, endedReason: 'customer-did-not-answer' }))).status).toBe(
      200,
    );
    const waiting = await waitFor(
      () => call(callId),
      (c) => c.status === 'scheduled' && c.next_attempt_at !== null,
    );
    expect(Date.parse(waiting.next_attempt_at) - Date.now()).toBeGreaterThan(90 * 60_000);
    return callId;
  }

  /** A workspace of its own, with one call to `candidate` of a campaign job of its own: its key and the call's id. */
  async function workspaceWithCall(name: string, candidate: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    const ws = await bench.stack.newWorkspace(name);
    const job = `job-${name.toLowerCase().replace(/\W+/g, '-')}`;
    await bench.stack.request('POST', '/api/public/v1/campaigns', { key: ws.key, body: { ats_job_id: job, name } });
    const res = await bench.stack.request('POST', '/api/public/v1/call/initiate', {
      key: ws.key,
      body: { ats_job_id: job, candidates: [candidate], first_message: 'Hi', instructions: 'Ask about availability.', ...extra },
    });
    expect(res.body).toMatchObject({ success: true });
    return { key: ws.key, callId: res.body.data.calls[0].id as string };
  }

  /**
   * A workspace of its own with a voice number of its own (`settings`: the operator's) and a campaign job: its
   * calls, one candidate each (`extra`: the request's other fields), and each call as GET shows it.
   */
  async function ownNumberWorkspace(name: string, voice: string, settings: WorkspaceSettings = {}) {
    const ws = await bench.stack.newWorkspace(name);
    if (Object.keys(settings).length > 0) await bench.stack.stores.workspaces.updateSettings(ws.id, settings);
    expect(await bench.stack.stores.workspaces.setNumbers(ws.id, { voice })).toEqual({ set: true });
    const job = `job-${voice}`;
    await bench.stack.request('POST', '/api/public/v1/campaigns', { key: ws.key, body: { ats_job_id: job, name } });
    const start = async (id: string, phone: string, extra: Record<string, unknown>) => {
      const res = await bench.stack.request('POST', '/api/public/v1/call/initiate', {
        key: ws.key,
        body: {
          ats_job_id: job,
          candidates: [{ id, name: `${name} ${id}`, email: `${id}@example.com`, phone }],
          first_message: 'Hi',
          instructions: 'Ask about availability.',
          ...extra,
        },
      });
      expect(res.body).toMatchObject({ success: true });
      return res.body.data.calls[0].id as string;
    };
    const get = (id: string) => bench.stack.request('GET', `/api/public/v1/calls/${id}`, { key: ws.key }).then((r) => r.body.data);
    return { ...ws, start, get };
  }

  it('shows the numbers in GET /workspace, and sends dials, templates and invitations from them', async () => {
    const shown = await bench.stack.request('GET', '/api/public/v1/workspace', { key: bench.key });
    expect(shown.body.data.numbers).toEqual({ voice: VOICE, whatsapp: WHATSAPP, email_from: 'Acme Hiring <jobs@acme.example>' });
    const other = await bench.stack.newWorkspace('Plain');
    const plain = await bench.stack.request('GET', '/api/public/v1/workspace', { key: other.key });
    expect(plain.body.data.numbers).toEqual({
      voice: VAPI_PHONE_NUMBER_ID,
      whatsapp: WA_PHONE_NUMBER_ID,
      email_from: 'interviews@example.com',
    });

    const callId = await start(60, { whatsapp_notifications: { pre_call: preCall } });
    expect((await dialOf(callId))!.body).toMatchObject({ phoneNumberId: VOICE, assistant: { metadata: { direction: 'outbound' } } });
    const sent = bench.graph.requests.filter((r) => r.method === 'POST' && r.body?.to === candidate(60).phone.slice(1));
    expect(sent.map((r) => r.path)).toEqual([expect.stringMatching(new RegExp(`/${WHATSAPP}/messages$`))]);

    const invited = await bench.stack.request('POST', '/api/public/v1/interview/invite', {
      key: bench.key,
      body: inviteBody([inviteCandidate(60)], { ats_job_id: 'job-numbers' }),
    });
    expect(invited.status).toBe(200);
    const mail = await waitFor(() => bench.stack.stores.providerLogs.email(invited.body.data.interviews[0].id), Boolean, 60_000);
    expect(mail!.from).toBe('Acme Hiring <jobs@acme.example>');
  });

  it("answers a call-back to the workspace number with a gate that names no one, gives the call's script only for the candidate's name, and completes the call once screened: no retry, no fallback", async () => {
    const callId = await waitingForRetry(61, { whatsapp_notifications: { fallback } });
    const answer = await callIn(VOICE, candidate(61).phone, 'inbound-61');
    expect(answer.assistant).toMatchObject({
      firstMessage:
        'Hello, this is an automated AI assistant calling on behalf of Acme Robotics. This call is recorded. Thank you for calling Acme Robotics back. Before we go on, may I have your full name, please?',
      metadata: { call_id: callId, attempt: 2, direction: 'inbound' },
      server: { url: `https://hiring.test${VAPI_EVENTS}` },
      serverMessages: ['end-of-call-report', 'status-update', 'tool-calls'],
    });
    // Before the caller says who they are, the assistant knows the company and nothing of the person or the job.
    expect(JSON.stringify(answer)).not.toMatch(/Grace|Hi Grace|recruiting for/);
    expect(answer.assistant.model.messages[0].content).toMatch(/^You answer a phone call on behalf of Acme Robotics/);
    const tools = answer.assistant.model.tools as Array<Record<string, any>>;
    expect(tools.map((t) => t.type)).toEqual(['function', 'endCall']);
    expect(tools[0]).toMatchObject({ function: { name: 'confirm_identity' }, server: { url: `https://hiring.test${VAPI_EVENTS}` } });
    expect(Object.keys(answer.assistant.analysisPlan.structuredDataPlan.schema.properties)).toEqual(['available', 'years', 'start_date']);
    expect((await recorded(callId, 2, 'inbound-61'))!.attempts.map((a) => a.direction)).toEqual(['outbound', 'inbound']);

    // A first name alone is not the candidate; the full name, as a transcriber may write it, is.
    expect(await identify(callId, 2, 'inbound-61', 'Grace')).toMatch(/^Not confirmed\./);
    const confirmed = await identify(callId, 2, 'inbound-61', 'grace  HOPPER.', true);
    expect(confirmed).toMatch(/^Confirmed: the caller is the candidate\. Say next: "Hi Grace, this is Ada/);
    expect(confirmed).toContain('You are recruiting for Acme Robotics.');

    const report = endOfCallReport({
      callId,
      attempt: 2,
      providerCallId: 'inbound-61',
      endedReason: 'assistant-ended-call',
      structuredData: { years: 6 },
      direction: 'inbound',
    });
    expect((await signedVapi(report)).status).toBe(200);
    const done = await waitFor(
      () => call(callId),
      (c) => c.status === 'completed',
    );
    expect(done).toMatchObject({ next_attempt_at: null, extracted_variables: { years: 6 }, messages: [] });
    expect(done.attempts).toMatchObject([
      { number: 1, direction: 'outbound', outcome: 'failed', failure_reason: 'missed' },
      { number: 2, direction: 'inbound', outcome: 'completed' },
    ]);
    // One dial, and no fallback template ever went out.
    expect(bench.vapi.requests.filter((r) => r.method === 'POST' && r.body?.assistant?.metadata?.call_id === callId)).toHaveLength(1);
    expect(bench.graph.requests.filter((r) => r.method === 'POST' && r.body?.to === candidate(61).phone.slice(1))).toEqual([]);
  });

  it("answers nothing pending for a call never dialled, and on the service number takes a missed call's call-back; a stranger's, hung up after 10 s, fails as call_back_incomplete and the call keeps its retry", async () => {
    const scheduled = await workspaceWithCall(
      'Shared',
      { id: 's-1', name: 'Sam Shared', email: 'sam@example.com', phone: '+14155553101' },
      { schedule_at: new Date(Date.now() + 3 * 3_600_000).toISOString() },
    );
    const get = (key: string, id: string) => bench.stack.request('GET', `/api/public/v1/calls/${id}`, { key }).then((r) => r.body.data);
    const waiting = await waitFor(
      () => get(scheduled.key, scheduled.callId),
      (c) => c.status === 'scheduled' && c.next_attempt_at !== null,
    );
    expect(waiting.attempts).toEqual([]);
    // Never dialled: the caller cannot be returning a call, whatever number they call from.
    nothingPending(await callIn(VAPI_PHONE_NUMBER_ID, '+14155553101', 'inbound-never'));
    expect((await get(scheduled.key, scheduled.callId)).attempts).toEqual([]);

    const shared = await workspaceWithCall(
      'Shared two',
      { id: 's-2', name: 'Sue Shared', email: 'sue@example.com', phone: '+14155553102' },
      { call_settings: retryIn2Hours },
    );
    const callId = shared.callId;
    const dialled = await providerCallIdOf(callId);
    await signedVapi(endOfCallReport({ callId, attempt: 1, providerCallId: dialled, endedReason: 'customer-did-not-answer' }));
    const missed = await waitFor(
      () => get(shared.key, callId),
      (c) => c.status === 'scheduled' && c.next_attempt_at !== null,
    );
    // The bench's workspace has a number of its own: a call to the service's number is not about its calls.
    const answer = await callIn(VAPI_PHONE_NUMBER_ID, '+14155553102', 'inbound-shared');
    expect(answer.assistant.metadata).toEqual({ call_id: callId, attempt: 2, direction: 'inbound' });
    expect(JSON.stringify(answer)).not.toMatch(/Sue/);
    await recorded(callId, 2, 'inbound-shared');
    expect(await identify(callId, 2, 'inbound-shared', 'Sam Stranger')).not.toMatch(/Sue|Ask about availability/);
    // A second wrong name, and then the gate takes no name on this call, not even the candidate's.
    expect(await identify(callId, 2, 'inbound-shared', 'Sam Shared')).toMatch(/^Not confirmed\./);
    expect(await identify(callId, 2, 'inbound-shared', 'Sue Shared')).toMatch(/^Not confirmed\./);
    // Hung up after ten seconds: `customer-ended-call`, nothing extracted. Not a screening.
    await signedVapi(
      endOfCallReport({
        callId,
        attempt: 2,
        providerCallId: 'inbound-shared',
        endedReason: 'customer-ended-call',
        durationSeconds: 10,
        direction: 'inbound',
      }),
    );
    const after = await waitFor(
      () => get(shared.key, callId),
      (c) => c.attempts.length === 2 && c.attempts[1].outcome !== null && c.status === 'scheduled',
    );
    expect(after.attempts).toMatchObject([
      { number: 1, direction: 'outbound', outcome: 'failed', failure_reason: 'missed' },
      { number: 2, direction: 'inbound', outcome: 'failed', failure_reason: 'call_back_incomplete' },
    ]);
    // The retry the missed dial earned still stands, at its time.
    expect(after.next_attempt_at).toBe(missed.next_attempt_at);

    // Sue calls back herself. The call declares no variables: Vapi's evaluation of the screening decides.
    await callIn(VAPI_PHONE_NUMBER_ID, '+14155553102', 'inbound-sue');
    await recorded(callId, 3, 'inbound-sue');
    expect(await identify(callId, 3, 'inbound-sue', 'Sue Shared')).toContain('Ask about availability.');
    const screened = {
      callId,
      attempt: 3,
      providerCallId: 'inbound-sue',
      endedReason: 'assistant-ended-call',
      direction: 'inbound' as const,
    };
    await signedVapi(endOfCallReport({ ...screened, successEvaluation: 'true' }));
    const done = await waitFor(
      () => get(shared.key, callId),
      (c) => c.status === 'completed',
    );
    expect(done.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(['failed', 'failed', 'completed']);
  });

  it("says nothing is pending, and records nothing, for an unknown caller, another workspace's number and a suppressed phone", async () => {
    const callId = await waitingForRetry(62);
    const before = await bench.stack.db.calls.findOne({ _id: callId });

    nothingPending(await callIn(VOICE, '+14155559876'));
    // Another workspace's own number never reaches this workspace's calls.
    const other = await bench.stack.newWorkspace('Other');
    expect(await bench.stack.stores.workspaces.setNumbers(other.id, { voice: 'vapi-number-other' })).toEqual({ set: true });
    nothingPending(await callIn('vapi-number-other', candidate(62).phone));
    // A number that is no one's.
    nothingPending(await callIn('vapi-number-unknown', candidate(62).phone));
    expect(await bench.stack.db.calls.findOne({ _id: callId })).toEqual(before);

    const suppressed = await waitingForRetry(63);
    const filed = await bench.stack.request('POST', '/api/public/v1/suppressions', {
      key: bench.key,
      body: { phone: candidate(63).phone, reason: 'asked not to be called' },
    });
    expect(filed.status).toBe(201);
    nothingPending(await callIn(VOICE, candidate(63).phone));
    // An email filed for voice refuses the call-back as it refuses a dial.
    await waitingForRetry(67);
    const byEmail = await bench.stack.request('POST', '/api/public/v1/suppressions', {
      key: bench.key,
      body: { email: candidate(67).email, reason: 'asked by email' },
    });
    expect(byEmail.status).toBe(201);
    nothingPending(await callIn(VOICE, candidate(67).phone));
    const after = await waitFor(
      () => call(suppressed),
      (c) => c.status === 'cancelled',
    );
    expect(after.attempts).toHaveLength(1);
  });

  it('says nothing is pending to a person erased while their call waited, and writes nothing of them', async () => {
    const callId = await waitingForRetry(65);
    const erased = await bench.stack.request('POST', '/api/public/v1/candidates/erase', {
      key: bench.key,
      body: { phone: candidate(65).phone },
    });
    expect(erased.status).toBe(200);
    expect(erased.body.data).toMatchObject({ calls: 1 });
    const gone = await waitFor(
      () => bench.stack.db.calls.findOne({ _id: callId }),
      (c) => c?.status === 'cancelled' && !!c.erased_at,
    );

    const answer = await callIn(VOICE, candidate(65).phone, 'inbound-erased');
    nothingPending(answer);
    expect(JSON.stringify(answer)).not.toContain(candidate(65).phone);
    // Nothing of the person came back: the record is as the erasure left it, with no attempt of the call-back.
    expect(await bench.stack.db.calls.findOne({ _id: callId })).toEqual(gone);
    expect(gone!.attempts.map((a) => a.provider_call_id)).not.toContain('inbound-erased');
  });

  it('takes a call-back only within call_back_days and call_backs_per_day of a missed dial, and only in a free slot of max_concurrent_calls', async () => {
    const { key, start: startIn, get } = await ownNumberWorkspace('Capped', 'vapi-number-capped', { max_concurrent_calls: 1 });
    const screening = {
      extract_variables: [{ label: 'available', type: 'boolean', description: 'Available?' }],
      call_settings: retryIn2Hours,
    };
    const settings = (body: Record<string, unknown>) => bench.stack.request('PATCH', '/api/public/v1/workspace', { key, body });

    const first = await startIn('cap-a', '+14155553201', screening);
    await signedVapi(
      endOfCallReport({ callId: first, attempt: 1, providerCallId: await providerCallIdOf(first), endedReason: 'customer-did-not-answer' }),
    );
    await waitFor(
      () => get(first),
      (c) => c.status === 'scheduled' && c.next_attempt_at !== null,
    );
    // The one slot is held by another call's dial under way: the caller hears nothing is pending.
    const second = await startIn('cap-b', '+14155553202', screening);
    const secondDial = await providerCallIdOf(second);
    nothingPending(await callIn('vapi-number-capped', '+14155553201', 'inbound-cap-1'));
    await signedVapi(endOfCallReport({ callId: second, attempt: 1, providerCallId: secondDial, endedReason: 'customer-did-not-answer' }));
    await waitFor(
      () => get(second),
      (c) => c.status === 'scheduled',
    );

    // Call-backs off (call_back_days 0), then on again.
    expect((await settings({ call_back_days: 0 })).body.data.settings).toMatchObject({ call_back_days: 0, call_backs_per_day: 3 });
    nothingPending(await callIn('vapi-number-capped', '+14155553201', 'inbound-cap-2'));
    expect((await settings({ call_back_days: 31 })).status).toBe(400);
    await settings({ call_back_days: 7, call_backs_per_day: 1 });
    const gate = await callIn('vapi-number-capped', '+14155553201', 'inbound-cap-3');
    expect(gate.assistant.metadata).toEqual({ call_id: first, attempt: 2, direction: 'inbound' });
    await recorded(first, 2, 'inbound-cap-3');
    // Under way: no second call-back, even for another call of the same person.
    nothingPending(await callIn('vapi-number-capped', '+14155553201', 'inbound-cap-4'));
    await signedVapi(
      endOfCallReport({
        callId: first,
        attempt: 2,
        providerCallId: 'inbound-cap-3',
        endedReason: 'customer-ended-call',
        durationSeconds: 8,
        direction: 'inbound',
      }),
    );
    const incomplete = await waitFor(
      () => get(first),
      (c) => c.attempts[1]?.outcome === 'failed' && c.status === 'scheduled',
    );
    // Hung up after 8 s: ended early, however the provider words it.
    expect(incomplete.attempts[1]).toMatchObject({
      direction: 'inbound',
      failure_reason: 'call_back_incomplete',
      ended_reason: 'customer-ended-call',
    });
    // One call-back a day (call_backs_per_day 1): the next is refused until a day has passed.
    nothingPending(await callIn('vapi-number-capped', '+14155553201', 'inbound-cap-5'));
    expect((await get(first)).attempts).toHaveLength(2);
  });

  it('holds the waiting calls without consent once the workspace requires it: no dial (a consent_required deferral) and no call-back', async () => {
    const { key, start: startIn, get } = await ownNumberWorkspace('Consenting', 'vapi-number-consent');
    const missed = await startIn('con-a', '+14155553301', { call_settings: retryIn2Hours });
    await signedVapi(
      endOfCallReport({
        callId: missed,
        attempt: 1,
        providerCallId: await providerCallIdOf(missed),
        endedReason: 'customer-did-not-answer',
      }),
    );
    await waitFor(
      () => get(missed),
      (c) => c.status === 'scheduled' && c.next_attempt_at !== null,
    );
    const due = await startIn('con-b', '+14155553302', { schedule_at: new Date(Date.now() + 3_000).toISOString() });

    const turned = await bench.stack.request('PATCH', '/api/public/v1/workspace', { key, body: { voice_consent_required: true } });
    expect(turned.body.data.settings.voice_consent_required).toBe(true);
    nothingPending(await callIn('vapi-number-consent', '+14155553301', 'inbound-consent'));
    const held = await waitFor(
      () => get(due),
      (c) => (c.deferrals ?? []).length > 0,
      30_000,
    );
    expect(held).toMatchObject({ status: 'scheduled', attempts: [] });
    expect(held.deferrals).toEqual([{ from: expect.any(String), to: held.next_attempt_at, reason: 'consent_required' }]);
    expect(Date.parse(held.next_attempt_at) - Date.parse(held.deferrals[0].from)).toBe(3_600_000);
    expect(bench.vapi.requests.filter((r) => r.method === 'POST' && r.body?.assistant?.metadata?.call_id === due)).toEqual([]);
  });

  it("keeps nowhere a report whose assistant metadata names no call of ours, and deletes a nothing-pending call's copy at the provider", async () => {
    const callId = await start(66, retryIn2Hours);
    const providerCallId = await providerCallIdOf(callId);
    const foreign = async () =>
      (await bench.stack.modules.metrics.foreignReports.get()).values.find((v) => v.labels.provider === 'vapi')?.value ?? 0;
    const before = await foreign();
    // Named like our dial (`<call>#1`), but its assistant's metadata names no call: not joined.
    const unnamed = endOfCallReport({
      callId,
      attempt: 1,
      providerCallId,
      endedReason: 'assistant-ended-call',
      metadata: null,
      structuredData: { years: 9 },
    });
    expect((await signedVapi(unnamed)).status).toBe(200);
    expect(await foreign()).toBe(before + 1);
    expect(await bench.stack.stores.callReports.get(callId, 1)).toBeNull();
    expect((await call(callId)).attempts[0]).toMatchObject({ outcome: null });

    nothingPending(await callIn(VOICE, '+14155559877', 'inbound-nothing'));
    const ended = endOfCallReport({
      callId: 'none',
      attempt: 1,
      providerCallId: 'inbound-nothing',
      endedReason: 'assistant-ended-call',
      metadata: { call_back: 'nothing_pending' },
    });
    expect((await signedVapi(ended)).status).toBe(200);
    // Vapi is down for the first DELETE of a call here; the deletion is tried again until it is taken.
    await waitFor(
      async () => bench.vapi.requests.filter((r) => r.method === 'DELETE' && r.path === '/call/inbound-nothing').length,
      (n) => n >= 2,
      60_000,
    );
  });

  it('refuses an assistant-request that is not signed, and answers nothing of it', async () => {
    const body = assistantRequest({ numberId: VOICE, from: candidate(61).phone });
    for (const headers of [{}, { 'x-vapi-secret': 'nope' }] as Array<Record<string, string>>) {
      const res = await post(VAPI_EVENTS, body, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: 'Vapi message signature or secret is missing or wrong' });
    }
  });

  it("files a WhatsApp STOP to the workspace's own number in that workspace only", async () => {
    const phone = candidate(64).phone;
    await start(64, {});
    const other = await workspaceWithCall('Knows too', { id: 't-1', name: 'Grace', email: 'grace.t1@example.com', phone });
    expect((await signedWa(inboundTextWebhook(phone, 'wamid.stop-own', 'STOP', 'Grace', WHATSAPP))).status).toBe(200);
    const listed = async (key: string) =>
      (await bench.stack.request('GET', `/api/public/v1/suppressions?source=whatsapp`, { key })).body.data as Array<{
        phone: string;
      }>;
    await waitFor(
      () => listed(bench.key),
      (items) => items.some((s) => s.phone === phone),
    );
    expect((await listed(other.key)).filter((s) => s.phone === phone)).toEqual([]);
  });
});
