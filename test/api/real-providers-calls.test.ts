import { createHmac } from 'node:crypto';
import { realProvidersBench } from '../helpers/real-providers-bench';
import { waitFor } from '../helpers/wait';
import { endOfCallReport, statusUpdate, vapiCall, vapiHmacHeaders, VAPI_PHONE_NUMBER_ID } from '../helpers/provider-wire';

import { VAPI_EVENTS, VAPI_SECRET, fallback, initiate, preCall } from '../helpers/real-providers-bench';

describe('calls through the Vapi and WhatsApp Cloud adapters on the real stack: templates, dials, reports', () => {
  const bench = realProvidersBench();
  const { post, signedVapi, dialOf, providerCallIdOf, call, start } = bench;

  it('refuses at call/initiate, naming the template, templates that do not exist, are not approved or do not fit', async () => {
    const res = await bench.stack.request('POST', '/api/public/v1/call/initiate', {
      key: bench.key,
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
    const pending = await bench.stack.request('POST', '/api/public/v1/call/initiate', {
      key: bench.key,
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
    const down = await bench.stack.request('POST', '/api/public/v1/call/initiate', {
      key: bench.key,
      body: initiate(92, { whatsapp_notifications: { fallback: { template_name: 'graph_down' } } }),
    });
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      success: false,
      code: 'UPSTREAM_ERROR',
      message: 'Could not look up WhatsApp template "graph_down"; please retry',
    });
    const refused = { candidate_id: { $in: ['rp-90', 'rp-91', 'rp-92'] } };
    expect(await bench.stack.db.calls.countDocuments(refused)).toBe(0);
    expect(await bench.stack.db.candidates.countDocuments(refused)).toBe(0);
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
        firstMessage:
          'Hello, this is an automated AI assistant calling on behalf of Acme Robotics. This call is recorded. Hi Grace, this is Ada',
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
    const sent = bench.graph.requests.filter((r) => r.method === 'POST' && r.body.to === '14155552001');
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
    // The first report, as it arrived, is what the call was written from.
    expect(await bench.stack.db.callReports.findOne({ _id: `${callId}/1` })).toMatchObject({
      result: 'completed',
      ended_reason: 'assistant-ended-call',
    });
    expect(bench.graph.requests.filter((r) => r.method === 'POST' && r.body.to === '14155552001')).toHaveLength(1);
  });

  it("waits out Vapi's own concurrency cap (429) without counting an attempt, then dials", async () => {
    bench.vapiBusy.set('+14155552007', 2);
    const callId = await start(7, {});
    const waiting = await waitFor(
      () => call(callId),
      (c) => c.status === 'waiting_for_capacity',
      20_000,
    );
    expect(waiting.attempts).toEqual([]);
    const providerCallId = await providerCallIdOf(callId);
    const dials = bench.vapi.requests.filter(
      (r) => r.method === 'POST' && r.path === '/call' && r.body?.assistant?.metadata?.call_id === callId,
    );
    expect(dials).toHaveLength(3);
    // About a second apart, as Vapi's Retry-After asked.
    expect(dials[2].at - dials[1].at).toBeGreaterThanOrEqual(900);
    const report = endOfCallReport({ callId, attempt: 1, providerCallId, endedReason: 'assistant-ended-call' });
    expect((await signedVapi(report)).status).toBe(200);
    const done = await waitFor(
      () => call(callId),
      (c) => c.status === 'completed',
      20_000,
    );
    expect(done.attempts).toEqual([expect.objectContaining({ number: 1, outcome: 'completed' })]);
  }, 60_000);

  it("keeps Vapi's own words of a refused dial out of the call: the client reads a bounded reason", async () => {
    const words = 'customer.number must be a valid phone number in the E.164 format (account acct_8731, org Initech)';
    bench.vapiRefusals.set('+14155552008', words);
    const callId = await start(8, {});
    const failed = await waitFor(
      () => call(callId),
      (c) => c.status === 'failed',
      20_000,
    );
    expect(failed.attempts).toEqual([expect.objectContaining({ number: 1, ended_reason: 'provider-refused-number' })]);
    expect(JSON.stringify(failed)).not.toContain('acct_8731');
  }, 30_000);

  it('acknowledges reports and status updates for calls that are not ours, and answers 400 to a body that is not a message', async () => {
    const unknown = endOfCallReport({ callId: 'call_000000000000000000000000', attempt: 1, endedReason: 'customer-busy' });
    expect(await signedVapi(unknown)).toMatchObject({ status: 200, body: { success: true } });
    // Stored as it arrived, then removed once no such call is found.
    expect(await bench.stack.db.callReports.findOne({ _id: 'call_000000000000000000000000/1' })).toBeNull();
    const foreign = {
      message: {
        type: 'end-of-call-report',
        timestamp: Date.now(),
        endedReason: 'customer-busy',
        call: vapiCall({ name: 'someone else' }),
      },
    };
    expect((await signedVapi(foreign)).status).toBe(200);
    expect((await signedVapi({ message: { type: 'conversation-update', timestamp: Date.now(), messages: [] } })).status).toBe(200);
    expect((await signedVapi({ hello: 'world' })).status).toBe(400);
    const raw = '{"message": ';
    expect((await bench.stack.request('POST', VAPI_EVENTS, { raw, headers: vapiHmacHeaders(raw, VAPI_SECRET) })).status).toBe(400);
  });

  it("refuses a message sent more than 5 minutes ago, and reads Vapi's null fields as absent", async () => {
    const callId = await start(95, {});
    const providerCallId = await providerCallIdOf(callId);
    const report = endOfCallReport({ callId, attempt: 1, providerCallId, endedReason: 'customer-busy' });
    const stale = { message: { ...report.message, timestamp: Date.now() - 6 * 60_000 } };
    const refused = await signedVapi(stale);
    expect(refused).toMatchObject({
      status: 401,
      body: { success: false, message: 'Vapi message is more than 5 minutes old: a replay, not a delivery' },
    });
    expect((await call(callId)).attempts[0].outcome).toBeNull();
    // One that does not say when it was sent could be replayed for ever: refused, however it was signed.
    const { timestamp: _sent, ...unstamped } = report.message;
    expect(await signedVapi({ message: unstamped })).toMatchObject({
      status: 401,
      body: { success: false, message: 'Vapi message has no timestamp: a replay cannot be told from a delivery' },
    });
    const raw = JSON.stringify(report);
    const bodyOnly = { 'x-vapi-signature': createHmac('sha256', VAPI_SECRET).update(raw).digest('hex') };
    expect((await bench.stack.request('POST', VAPI_EVENTS, { raw, headers: bodyOnly })).status).toBe(401);
    expect((await call(callId)).attempts[0].outcome).toBeNull();

    // As Vapi sends a report of a call without a recording: the null fields are absent, not a refusal.
    const withNulls = {
      message: {
        ...report.message,
        recordingUrl: null,
        artifact: { ...report.message.artifact, recordingUrl: null, transcript: null },
        cost: null,
      },
    };
    expect(await signedVapi(withNulls)).toMatchObject({ status: 200, body: { success: true } });
    const ended = await waitFor(
      () => call(callId),
      (c) => c.attempts[0]?.outcome !== null,
    );
    expect(ended.attempts[0]).toMatchObject({ outcome: 'failed', failure_reason: 'declined', recording_url: null });
  });
});
