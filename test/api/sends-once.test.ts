import { processStack } from '../helpers/process-stack';
import { startHttpStub, type HttpStub, type StubReply } from '../helpers/http-stub';
import { waitFor } from '../helpers/wait';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import {
  PRE_CALL_TEMPLATE,
  WA_BUSINESS_ACCOUNT_ID,
  WA_PHONE_NUMBER_ID,
  WA_VERSION,
  hubSignature,
  statusWebhook,
  templateListReply,
} from '../helpers/provider-wire';
import { SEND_UNANSWERED } from '../../shared/contact/reasons';

const APP_SECRET = 'meta-app-secret';

/**
 * Once to a person (docs/reliability.md): the worker is SIGKILLed while WhatsApp, SendGrid and a webhook
 * receiver each hold a request of it in flight (the stand-ins answer only after the kill). A new worker takes
 * the work up and sends none of them again: the message and the email are recorded `unknown`, the webhook's
 * try is counted with its outcome unknown and the next follows the schedule. WhatsApp's first status of the
 * message, which names it by what its send carried, settles it.
 */
describe('a worker killed mid-send sends nothing twice', () => {
  const stack = processStack('sends-once');
  let graph: HttpStub;
  let sendgrid: HttpStub;
  let receiver: HttpStub;
  let release: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  /** Every first request of each stand-in waits until the worker that sent it is dead. */
  const holdFirst = (answer: () => StubReply) => {
    let first = true;
    return (): StubReply => {
      if (!first) return answer();
      first = false;
      return { held: held.then(answer) };
    };
  };

  beforeAll(async () => {
    const sentMessage = holdFirst(() => ({ status: 200, body: { messages: [{ id: 'wamid.HELD' }] } }));
    graph = await startHttpStub((req) => (req.method === 'GET' ? templateListReply(req) : sentMessage()));
    sendgrid = await startHttpStub(holdFirst(() => ({ status: 202, headers: { 'x-message-id': 'sg-held' } })));
    receiver = await startHttpStub(holdFirst(() => ({ status: 200, body: { ok: true } })));
  });
  afterAll(async () => {
    release();
    await Promise.all([graph?.close(), sendgrid?.close(), receiver?.close()]);
  });

  it('records the WhatsApp template and the email unknown, counts the webhook try, and settles the message by its status', async () => {
    const providers = {
      WHATSAPP_PROVIDER: 'cloud',
      WHATSAPP_ACCESS_TOKEN: 'EAAG-token',
      WHATSAPP_BASE_URL: graph.url,
      WHATSAPP_API_VERSION: WA_VERSION,
      WHATSAPP_PHONE_NUMBER_ID: WA_PHONE_NUMBER_ID,
      WHATSAPP_BUSINESS_ACCOUNT_ID: WA_BUSINESS_ACCOUNT_ID,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-me',
      EMAIL_PROVIDER: 'sendgrid',
      SENDGRID_API_KEY: 'SG.test-key',
      SENDGRID_BASE_URL: sendgrid.url,
      // The requests held stay unanswered until the kill, however slow the machine is to get there.
      WHATSAPP_TIMEOUT_MS: '60000',
      SENDGRID_TIMEOUT_MS: '60000',
    };
    const api = await stack.start('api', providers);
    let worker = await stack.start('worker', providers);
    const hook = await stack.post('/api/public/v1/webhooks', { url: `${receiver.url}/hooks`, events: ['call.scheduled'] });
    expect(hook.status).toBe(201);
    await stack.post('/api/public/v1/campaigns', { ats_job_id: 'job-sends', name: 'Sends' });
    const initiated = await stack.post('/api/public/v1/call/initiate', {
      ats_job_id: 'job-sends',
      instructions: 'Ask about availability.',
      call_settings: { whatsapp_notifications: { pre_call: PRE_CALL_TEMPLATE } },
      candidates: [{ id: 'sends-1', name: 'Grace Hopper', email: 'grace@example.com', phone: '+14155552099' }],
    });
    const callId: string = initiated.body.data.calls[0].id;
    // A call an hour ahead: its call.scheduled is announced at once, while the template waits.
    const later = await stack.post('/api/public/v1/call/initiate', {
      ats_job_id: 'job-sends',
      instructions: 'Ask about availability.',
      schedule_at: new Date(Date.now() + 3_600_000).toISOString(),
      candidates: [{ id: 'sends-2', name: 'Ada Lovelace', email: 'ada@example.com', phone: '+14155552098' }],
    });
    expect(later.body.data.calls[0].status).toBe('success');
    const invited = await stack.post('/api/public/v1/interview/invite', inviteBody([inviteCandidate(7)], { ats_job_id: 'job-sends-iv' }));
    const interviewId: string = invited.body.data.interviews[0].id;

    // Each stand-in holds the worker's first request: the kill comes mid-send, after the request went out.
    const posts = (stub: HttpStub) => stub.requests.filter((r) => r.method === 'POST');
    await waitFor(
      async () => [posts(graph).length, posts(sendgrid).length, posts(receiver).length],
      (n) => n.every((c) => c === 1),
      30_000,
    );
    await worker.kill();
    release();
    worker = await stack.start('worker', providers);

    const call = await waitFor(
      async () => (await stack.get(`/calls/${callId}`)).body.data,
      (c) => c.messages.length === 1 && c.status === 'completed',
      60_000,
    );
    expect(call.messages[0]).toMatchObject({ kind: 'pre_call', status: 'unknown', error: SEND_UNANSWERED, sent_at: null });
    const interview = await waitFor(
      async () => (await stack.get(`/interviews/${interviewId}`)).body.data,
      (i) => i.email.status !== 'pending',
      60_000,
    );
    expect(interview).toMatchObject({ status: 'invited', email: { status: 'unknown', error: SEND_UNANSWERED, message_id: null } });
    const heldEvent = posts(receiver)[0].headers['webhook-id'];
    const delivery = await waitFor(
      async () => (await stack.get(`/webhooks/${hook.body.data.id}/deliveries`)).body.data.find((d: any) => d.event_id === heldEvent),
      (d) => d?.status === 'delivered',
      60_000,
    );
    expect(delivery).toMatchObject({ attempts: 2 });

    // None was sent again: one template, one email, and the event's second try no sooner than its schedule.
    expect([posts(graph).length, posts(sendgrid).length]).toEqual([1, 1]);
    expect(posts(graph)[0].body.biz_opaque_callback_data).toBe(`${callId}/pre_call`);
    expect(posts(sendgrid)[0].body.custom_args).toMatchObject({ interview_id: interviewId, kind: 'invitation' });
    const [first, second] = posts(receiver).filter((r) => r.headers['webhook-id'] === heldEvent);
    expect(second.at - first.at).toBeGreaterThanOrEqual(5_000);

    // WhatsApp's first status of the message names it by what its send carried: it settles it, with its id.
    const status = statusWebhook('wamid.HELD', 'delivered', { biz_opaque_callback_data: `${callId}/pre_call` });
    const raw = JSON.stringify(status);
    const answered = await fetch(`http://127.0.0.1:${stack.env.PORT}/api/public/v1/providers/whatsapp/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...hubSignature(raw, APP_SECRET) },
      body: raw,
    });
    expect(answered.status).toBe(200);
    const settled = (await stack.get(`/calls/${callId}`)).body.data.messages[0];
    expect(settled).toMatchObject({ status: 'delivered', error: null });
    expect((await stack.db.calls.findOne({ _id: callId }))!.messages[0].provider_message_id).toBe('wamid.HELD');
    // Its later statuses find it by that id, as any other message's do.
    const read = JSON.stringify(statusWebhook('wamid.HELD', 'read'));
    await fetch(`http://127.0.0.1:${stack.env.PORT}/api/public/v1/providers/whatsapp/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...hubSignature(read, APP_SECRET) },
      body: read,
    });
    expect((await stack.get(`/calls/${callId}`)).body.data.messages[0].status).toBe('read');
    await Promise.all([api.stop(), worker.stop()]);
  }, 150_000);
});
