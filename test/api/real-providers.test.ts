import { startStack, type Stack } from '../helpers/stack';
import { startHttpStub, type HttpStub } from '../helpers/http-stub';
import { waitFor } from '../helpers/wait';
import {
  FALLBACK_TEMPLATE,
  PRE_CALL_TEMPLATE,
  endOfCallReport,
  graphError,
  hubSignature,
  messageAccepted,
  statusUpdate,
  statusWebhook,
  templateListReply,
  vapiCall,
  vapiCreateReply,
  vapiHmacHeaders,
  VAPI_PHONE_NUMBER_ID,
  WA_BUSINESS_ACCOUNT_ID,
  WA_PHONE_NUMBER_ID,
  WA_VERSION,
} from '../helpers/provider-wire';

const VAPI_SECRET = 'whsec-vapi-test';
const APP_SECRET = 'meta-app-secret';
const VERIFY_TOKEN = 'verify-me';
const VAPI_EVENTS = '/api/public/v1/providers/vapi/events';
const WA_EVENTS = '/api/public/v1/providers/whatsapp/events';
const job = 'job-real-providers';

const preCall = PRE_CALL_TEMPLATE;
const fallback = FALLBACK_TEMPLATE;
const extractVariables = [
  { label: 'available', type: 'boolean', description: 'Is the candidate available?' },
  { label: 'years', type: 'integer', description: 'Years of experience' },
  { label: 'start_date', type: 'date', description: 'Earliest start date' },
];
const candidate = (i: number) => ({
  id: `rp-${i}`,
  name: `Grace Hopper ${i}`.replace(/ \d+$/, ''),
  email: `grace.${i}@example.com`,
  phone: `+1415555${String(2000 + i)}`,
});
const initiate = (i: number, settings: Record<string, unknown>) => ({
  ats_job_id: job,
  candidates: [candidate(i)],
  first_message: 'Hi {{candidate_first_name}}, this is {{sender_first_name}}',
  instructions: 'You are recruiting for {{sender_company}}.',
  extract_variables: extractVariables,
  call_settings: settings,
});

/**
 * The real API, worker, database and Temporal with both production adapters pointed at local servers that
 * speak Vapi's and the WhatsApp Cloud API's wire formats.
 */
describe('calls through the Vapi and WhatsApp Cloud adapters on the real stack', () => {
  let stack: Stack;
  let key: string;
  let vapi: HttpStub;
  let graph: HttpStub;
  /** What GET /call/{id} answers for each Vapi call id; a call not listed is still in progress. */
  const vapiState = new Map<string, Record<string, unknown>>();

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    stack.request('POST', path, { raw: JSON.stringify(body), headers });
  const signedVapi = (body: unknown) => post(VAPI_EVENTS, body, vapiHmacHeaders(JSON.stringify(body), VAPI_SECRET));
  const signedWa = (body: unknown) => post(WA_EVENTS, body, hubSignature(JSON.stringify(body), APP_SECRET));
  const dialOf = (callId: string) =>
    waitFor(async () => vapi.requests.find((r) => r.method === 'POST' && r.body?.assistant?.metadata?.call_id === callId), Boolean);
  const providerCallIdOf = async (callId: string) =>
    (await waitFor(
      () => stack.db.calls.findOne({ _id: callId }),
      (c) => Boolean(c?.attempts[0]?.provider_call_id),
    ))!.attempts[0].provider_call_id!;
  const call = (id: string) => stack.request('GET', `/api/public/v1/calls/${id}`, { key }).then((r) => r.body.data);
  const start = async (i: number, settings: Record<string, unknown>) => {
    const res = await stack.request('POST', '/api/public/v1/call/initiate', { key, body: initiate(i, settings) });
    expect(res.status).toBe(200);
    expect(res.body.data.calls[0].status).toBe('success');
    return res.body.data.calls[0].id as string;
  };

  beforeAll(async () => {
    vapi = await startHttpStub((req) => {
      if (req.method === 'POST' && req.path === '/call') return vapiCreateReply(req);
      if (req.method === 'GET' && req.path.startsWith('/call?')) return { status: 200, body: [] };
      const id = /^\/call\/([^/?]+)$/.exec(req.path)?.[1];
      if (req.method === 'GET' && id) return { status: 200, body: vapiState.get(id) ?? vapiCall({ id, status: 'in-progress' }) };
      return { status: 404, body: { message: 'Not Found', statusCode: 404 } };
    });
    graph = await startHttpStub((req) => {
      if (req.method === 'GET' && req.path.includes('name=graph_down')) return graphError(503, 2, 'Service temporarily unavailable');
      return req.method === 'GET' ? templateListReply(req) : messageAccepted(req);
    });
    stack = await startStack({
      worker: true,
      env: {
        VOICE_PROVIDER: 'vapi',
        VAPI_API_KEY: 'vapi-private-key',
        VAPI_BASE_URL: vapi.url,
        VAPI_PHONE_NUMBER_ID,
        VAPI_WEBHOOK_SECRET: VAPI_SECRET,
        WHATSAPP_PROVIDER: 'cloud',
        WHATSAPP_ACCESS_TOKEN: 'EAAG-token',
        WHATSAPP_BASE_URL: graph.url,
        WHATSAPP_API_VERSION: WA_VERSION,
        WHATSAPP_PHONE_NUMBER_ID: WA_PHONE_NUMBER_ID,
        WHATSAPP_BUSINESS_ACCOUNT_ID: WA_BUSINESS_ACCOUNT_ID,
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
        // Vapi ends a call after 10 s; an attempt without a report is looked up at Vapi 2 s later.
        VAPI_MAX_CALL_SECONDS: '10',
        VAPI_REPORT_GRACE_SECONDS: '2',
      },
    });
    key = (await stack.newWorkspace('Acme')).key;
    const campaign = await stack.request('POST', '/api/public/v1/campaigns', {
      key,
      body: { ats_job_id: job, name: 'Support', company_name: 'Acme Robotics' },
    });
    expect(campaign.status).toBe(201);
  });
  afterAll(async () => {
    await stack?.stop();
    await vapi?.close();
    await graph?.close();
  });

  it('refuses at call/initiate, naming the template, templates that do not exist, are not approved or do not fit', async () => {
    const before = await stack.db.calls.countDocuments();
    const res = await stack.request('POST', '/api/public/v1/call/initiate', {
      key,
      body: initiate(90, {
        whatsapp_notifications: {
          pre_call: { template_name: 'no_such_template' },
          fallback: { ...fallback, template_variables: { body_1: 'x', body_9: 'y' } },
        },
      }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR', message: 'Request validation failed' });
    expect(res.body.errors).toEqual([
      {
        field: 'call_settings.whatsapp_notifications.pre_call.template_name',
        message: 'WhatsApp template "no_such_template" does not exist in the WhatsApp Business account',
      },
      {
        field: 'call_settings.whatsapp_notifications.fallback.template_variables',
        message: expect.stringMatching(/^WhatsApp template "missed_you" needs "body_2"; has no slot "body_9"/),
      },
    ]);
    const pending = await stack.request('POST', '/api/public/v1/call/initiate', {
      key,
      body: initiate(91, {
        whatsapp_notifications: { pre_call: { template_name: 'pending_template', template_variables: { body_1: 'x' } } },
      }),
    });
    expect(pending.status).toBe(400);
    expect(pending.body.errors).toEqual([
      {
        field: 'call_settings.whatsapp_notifications.pre_call.template_name',
        message: 'WhatsApp template "pending_template" is not approved (status PENDING)',
      },
    ]);
    const down = await stack.request('POST', '/api/public/v1/call/initiate', {
      key,
      body: initiate(92, { whatsapp_notifications: { fallback: { template_name: 'graph_down' } } }),
    });
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      success: false,
      code: 'UPSTREAM_ERROR',
      message: 'Could not look up WhatsApp template "graph_down"; please retry',
    });
    expect(await stack.db.calls.countDocuments()).toBe(before);
    expect(await stack.db.candidates.countDocuments({ candidate_id: { $in: ['rp-90', 'rp-91', 'rp-92'] } })).toBe(0);
  });

  it('sends the pre-call template, dials, and completes the call from a signed end-of-call report', async () => {
    const callId = await start(1, { whatsapp_notifications: { pre_call: preCall, fallback } });
    const dial = (await dialOf(callId))!;
    expect(dial.headers.authorization).toBe('Bearer vapi-private-key');
    expect(dial.body).toMatchObject({
      name: `${callId}#1`,
      phoneNumberId: VAPI_PHONE_NUMBER_ID,
      customer: { number: '+14155552001', name: 'Grace Hopper' },
      assistant: {
        firstMessage: 'Hi Grace, this is Ada',
        metadata: { call_id: callId, attempt: 1 },
        server: { url: `https://hiring.test${VAPI_EVENTS}` },
      },
    });
    expect(Object.keys(dial.body.assistant.analysisPlan.structuredDataPlan.schema.properties)).toEqual([
      'available',
      'years',
      'start_date',
    ]);
    // The pre-call template went out before the dial, filled for this candidate.
    const sent = graph.requests.filter((r) => r.method === 'POST' && r.body.to === '14155552001');
    expect(sent.map((r) => r.body.template.name)).toEqual(['interview_reminder']);
    expect(sent[0].body.template.components[1]).toEqual({
      type: 'body',
      parameters: [
        { type: 'text', text: 'Grace' },
        { type: 'text', text: 'Ada' },
        { type: 'text', text: 'Acme Robotics' },
      ],
    });
    const providerCallId = await providerCallIdOf(callId);

    // A live status update, then unauthenticated reports that must change nothing.
    expect((await signedVapi(statusUpdate({ callId, attempt: 1, status: 'ringing', providerCallId }))).status).toBe(200);
    expect((await call(callId)).attempts[0].provider_status).toBe('ringing');
    const report = endOfCallReport({
      callId,
      attempt: 1,
      providerCallId,
      endedReason: 'assistant-ended-call',
      structuredData: { available: 'yes', years: 'seven', start_date: '2027-01-15' },
    });
    const forged = await post(VAPI_EVENTS, report, vapiHmacHeaders(JSON.stringify(report), 'wrong-secret'));
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ success: false, message: 'Vapi message signature or secret is missing or wrong' });
    expect((await post(VAPI_EVENTS, report, {})).status).toBe(401);
    expect((await post(VAPI_EVENTS, report, { 'x-vapi-secret': 'nope' })).status).toBe(401);
    expect((await call(callId)).attempts[0]).toMatchObject({ outcome: null, provider_status: 'ringing', ended_reason: null });

    expect((await signedVapi(report)).status).toBe(200);
    const done = await waitFor(
      () => call(callId),
      (c) => c.status === 'completed',
    );
    expect(done).toMatchObject({
      status: 'completed',
      extracted_variables: { available: true, start_date: '2027-01-15' },
      extraction_notes: ['years: expected a whole number, got other text; dropped'],
      transcript: [
        { role: 'assistant', text: 'Hi Ada, do you have a minute?' },
        { role: 'candidate', text: 'Yes, I can start next month.' },
      ],
    });
    expect(done.attempts).toEqual([
      expect.objectContaining({
        number: 1,
        outcome: 'completed',
        ended_reason: 'assistant-ended-call',
        recording_url: 'https://storage.vapi.ai/recordings/abc.wav',
        provider_status: 'ended',
      }),
    ]);

    // A repeated report, even one saying something else, changes nothing.
    const again = endOfCallReport({
      callId,
      attempt: 1,
      providerCallId,
      endedReason: 'customer-busy',
      structuredData: { available: false },
    });
    expect((await signedVapi(again)).status).toBe(200);
    const after = await call(callId);
    expect(after.extracted_variables).toEqual({ available: true, start_date: '2027-01-15' });
    expect(after.attempts[0].ended_reason).toBe('assistant-ended-call');
    expect(graph.requests.filter((r) => r.method === 'POST' && r.body.to === '14155552001')).toHaveLength(1);
  });

  it('acknowledges reports and status updates for calls that are not ours, and answers 400 to a body that is not a message', async () => {
    const unknown = endOfCallReport({ callId: 'call_000000000000000000000000', attempt: 1, endedReason: 'customer-busy' });
    expect(await signedVapi(unknown)).toMatchObject({ status: 200, body: { success: true } });
    const foreign = { message: { type: 'end-of-call-report', endedReason: 'customer-busy', call: vapiCall({ name: 'someone else' }) } };
    expect((await signedVapi(foreign)).status).toBe(200);
    expect((await signedVapi({ message: { type: 'conversation-update', messages: [] } })).status).toBe(200);
    expect((await signedVapi({ hello: 'world' })).status).toBe(400);
    const raw = '{"message": ';
    expect((await stack.request('POST', VAPI_EVENTS, { raw, headers: vapiHmacHeaders(raw, VAPI_SECRET) })).status).toBe(400);
  });

  it('sends the fallback template when the call finally fails, and follows its delivery status from signed callbacks', async () => {
    const callId = await start(2, { retry_policy: { conditions: ['missed'] }, whatsapp_notifications: { fallback } });
    await dialOf(callId);
    expect((await signedVapi(endOfCallReport({ callId, attempt: 1, endedReason: 'customer-busy', durationSeconds: 0 }))).status).toBe(200);
    const failed = await waitFor(
      () => call(callId),
      (c) => c.status === 'failed' && c.messages.length === 1,
    );
    expect(failed).toMatchObject({
      status: 'failed',
      failure_reason: 'declined',
      attempts: [expect.objectContaining({ outcome: 'failed', failure_reason: 'declined' })],
    });
    const send = graph.requests.find((r) => r.method === 'POST' && r.body.to === '14155552002')!;
    expect(send.body.template).toEqual({
      name: 'missed_you',
      language: { code: 'en' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Grace' },
            { type: 'text', text: 'Ada Lovelace' },
          ],
        },
      ],
    });
    const wamid = (await stack.db.calls.findOne({ _id: callId }))!.messages[0].provider_message_id!;
    expect(failed.messages[0]).toMatchObject({ kind: 'fallback', template_name: 'missed_you', status: 'sent' });

    const delivered = statusWebhook(wamid, 'delivered');
    expect((await post(WA_EVENTS, delivered, hubSignature(JSON.stringify(delivered), 'not-the-app-secret'))).status).toBe(401);
    expect((await post(WA_EVENTS, delivered, {})).status).toBe(401);
    expect((await call(callId)).messages[0].status).toBe('sent');
    expect((await signedWa(delivered)).status).toBe(200);
    expect((await call(callId)).messages[0].status).toBe('delivered');
    expect((await signedWa(statusWebhook(wamid, 'read'))).status).toBe(200);
    // Out of order: a late "delivered" does not undo "read".
    expect((await signedWa(statusWebhook(wamid, 'delivered'))).status).toBe(200);
    expect((await call(callId)).messages[0].status).toBe('read');
    expect((await signedWa(statusWebhook('wamid.unknown', 'read'))).status).toBe(200);
  });

  it("records a delivery failure with WhatsApp's error code and text", async () => {
    const callId = await start(3, { whatsapp_notifications: { fallback } });
    await dialOf(callId);
    await signedVapi(endOfCallReport({ callId, attempt: 1, endedReason: 'customer-did-not-answer', durationSeconds: 0 }));
    const failed = await waitFor(
      () => call(callId),
      (c) => c.status === 'failed' && c.messages.length === 1,
    );
    const wamid = (await stack.db.calls.findOne({ _id: callId }))!.messages[0].provider_message_id!;
    const errors = [
      {
        code: 131026,
        title: 'Message undeliverable',
        message: 'Message undeliverable',
        error_data: { details: 'Receiver is incapable of receiving this message' },
      },
    ];
    expect((await signedWa(statusWebhook(wamid, 'failed', { errors }))).status).toBe(200);
    expect(failed.failure_reason).toBe('missed');
    expect((await call(callId)).messages[0]).toMatchObject({
      status: 'failed',
      error_code: 131026,
      error: 'Message undeliverable: Receiver is incapable of receiving this message',
    });
  });

  it('asks Vapi with GET /call/{id} about an attempt whose report never came, once the longest call and its grace are over', async () => {
    const callId = await start(4, {});
    const dial = (await dialOf(callId))!;
    const providerCallId = await providerCallIdOf(callId);
    vapiState.set(
      providerCallId,
      vapiCall({ id: providerCallId, name: dial.body.name, status: 'ended', endedReason: 'voicemail', assistant: dial.body.assistant }),
    );
    const failed = await waitFor(
      () => call(callId),
      (c) => c.status === 'failed',
      60_000,
    );
    expect(failed).toMatchObject({
      failure_reason: 'sent_to_voicemail',
      attempts: [expect.objectContaining({ ended_reason: 'voicemail', failure_reason: 'sent_to_voicemail' })],
    });
    const lookup = vapi.requests.find((r) => r.method === 'GET' && r.path === `/call/${providerCallId}`);
    expect(dial.body.assistant.maxDurationSeconds).toBe(10);
    // Not before the call could have ended and its report arrived (10 s + 2 s), and not long after.
    expect(lookup!.at - dial.at).toBeGreaterThanOrEqual(12_000);
    expect(lookup!.at - dial.at).toBeLessThan(30_000);
  });

  it("answers Meta's verification handshake only with the right token", async () => {
    const ok = await stack.request('GET', `${WA_EVENTS}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(ok.body).toBe(1158201444);
    const bad = await stack.request('GET', `${WA_EVENTS}?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444`);
    expect(bad).toMatchObject({ status: 403, body: { success: false, message: 'Webhook verification failed' } });
  });
});
