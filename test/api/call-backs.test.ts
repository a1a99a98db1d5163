import { realProvidersBench, candidate, fallback, preCall, VAPI_EVENTS } from '../helpers/real-providers-bench';
import { waitFor } from '../helpers/wait';
import { assistantRequest, endOfCallReport, inboundTextWebhook, VAPI_PHONE_NUMBER_ID, WA_PHONE_NUMBER_ID } from '../helpers/provider-wire';
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
    expect(answer.assistant.serverMessages).toEqual([]);
    expect(answer.assistant.metadata).toBeUndefined();
    expect(JSON.stringify(answer)).not.toMatch(/Grace|Acme|call_/);
  };
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

  it("answers a call-back to the workspace number with the call's assistant, and completes the call waiting for its retry: no retry, no fallback", async () => {
    const callId = await waitingForRetry(61, { whatsapp_notifications: { fallback } });
    const answer = await callIn(VOICE, candidate(61).phone, 'inbound-61');
    expect(answer.assistant).toMatchObject({
      firstMessage:
        'Hello, this is an automated AI assistant calling on behalf of Acme Robotics. This call is recorded. Thank you for returning our call from Acme Robotics. Hi Grace, this is Ada',
      metadata: { call_id: callId, attempt: 2, direction: 'inbound' },
      server: { url: `https://hiring.test${VAPI_EVENTS}` },
      serverMessages: ['end-of-call-report', 'status-update'],
      model: { messages: [{ role: 'system', content: 'You are recruiting for Acme Robotics.' }] },
    });
    expect(Object.keys(answer.assistant.analysisPlan.structuredDataPlan.schema.properties)).toEqual(['available', 'years', 'start_date']);
    expect((await call(callId)).attempts.map((a: { direction: string }) => a.direction)).toEqual(['outbound', 'inbound']);

    const report = endOfCallReport({
      callId,
      attempt: 2,
      providerCallId: 'inbound-61',
      endedReason: 'assistant-ended-call',
      structuredData: { years: 6 },
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

  it('takes a call-back to the service number for a workspace without its own, while its call waits for its schedule', async () => {
    const shared = await workspaceWithCall(
      'Shared',
      { id: 's-1', name: 'Sam Shared', email: 'sam@example.com', phone: '+14155553101' },
      { schedule_at: new Date(Date.now() + 3 * 3_600_000).toISOString() },
    );
    const callId = shared.callId;
    const waiting = await waitFor(
      () => bench.stack.request('GET', `/api/public/v1/calls/${callId}`, { key: shared.key }).then((r) => r.body.data),
      (c) => c.status === 'scheduled' && c.next_attempt_at !== null,
    );
    expect(waiting.attempts).toEqual([]);
    // The bench's workspace has a number of its own: a call to the service's number is not about its calls.
    const answer = await callIn(VAPI_PHONE_NUMBER_ID, '+14155553101', 'inbound-shared');
    expect(answer.assistant.metadata).toEqual({ call_id: callId, attempt: 1, direction: 'inbound' });
    await signedVapi(
      endOfCallReport({ callId, attempt: 1, providerCallId: 'inbound-shared', endedReason: 'customer-ended-call', durationSeconds: 120 }),
    );
    const done = await waitFor(
      () => bench.stack.request('GET', `/api/public/v1/calls/${callId}`, { key: shared.key }).then((r) => r.body.data),
      (c) => c.status === 'completed',
    );
    expect(done.attempts).toMatchObject([{ number: 1, direction: 'inbound', outcome: 'completed' }]);
    expect(bench.vapi.requests.filter((r) => r.method === 'POST' && r.body?.assistant?.metadata?.call_id === callId)).toEqual([]);
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
