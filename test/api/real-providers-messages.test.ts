import { realProvidersBench } from '../helpers/real-providers-bench';
import { waitFor } from '../helpers/wait';
import { endOfCallReport, hubSignature, statusWebhook, vapiCall } from '../helpers/provider-wire';

import { VERIFY_TOKEN, WA_EVENTS, fallback } from '../helpers/real-providers-bench';

describe('calls through the Vapi and WhatsApp Cloud adapters on the real stack: fallbacks, delivery statuses, lost reports', () => {
  const bench = realProvidersBench();
  const { vapiState, post, signedVapi, signedWa, dialOf, providerCallIdOf, call, start } = bench;

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
    const send = bench.graph.requests.find((r) => r.method === 'POST' && r.body.to === '14155552002')!;
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
    const wamid = (await bench.stack.db.calls.findOne({ _id: callId }))!.messages[0].provider_message_id!;
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
    const wamid = (await bench.stack.db.calls.findOne({ _id: callId }))!.messages[0].provider_message_id!;
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
    const lookup = bench.vapi.requests.find((r) => r.method === 'GET' && r.path === `/call/${providerCallId}`);
    expect(dial.body.assistant.maxDurationSeconds).toBe(10);
    // Not before the call could have ended and its report arrived (10 s + 2 s), and not long after.
    expect(lookup!.at - dial.at).toBeGreaterThanOrEqual(12_000);
    expect(lookup!.at - dial.at).toBeLessThan(30_000);
  });

  it("answers Meta's verification handshake only with the right token", async () => {
    const ok = await bench.stack.request(
      'GET',
      `${WA_EVENTS}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`,
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(ok.body).toBe(1158201444);
    const bad = await bench.stack.request('GET', `${WA_EVENTS}?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444`);
    expect(bad).toMatchObject({ status: 403, body: { success: false, message: 'Webhook verification failed' } });
  });
});
