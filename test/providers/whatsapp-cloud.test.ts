import {
  CloudWhatsAppProvider,
  MISSING_TEMPLATE_SECONDS,
  TEMPLATE_CACHE_NAMES,
  WhatsAppTemplateCatalog,
  type CloudApiOptions,
} from '../../providers/whatsapp/cloud';
import type { TemplateMessage } from '../../providers/whatsapp/port';
import { outcomeUnknown, UpstreamError } from '../../shared/errors';
import { startHttpStub, type HttpStub, type RecordedRequest, type StubReply } from '../helpers/http-stub';
import {
  graphError,
  messageAccepted,
  templateListReply,
  WA_BUSINESS_ACCOUNT_ID,
  WA_PHONE_NUMBER_ID,
  WA_VERSION,
} from '../helpers/provider-wire';

const message: TemplateMessage = {
  workspaceId: 'ws_1',
  callId: 'call_1',
  kind: 'pre_call',
  to: '+14155550123',
  templateName: 'interview_reminder',
  variables: { header_1: 'Ada', body_1: 'Ada', body_2: 'Grace', body_3: 'Acme', button_Reschedule: 'tok123' },
  language: 'en-US',
};

describe('WhatsApp Cloud API sender against a local server speaking the Graph API', () => {
  let stub: HttpStub;
  let sendReply: (req: RecordedRequest) => StubReply;
  let clock = 0;
  let options: CloudApiOptions;
  const provider = () => {
    const catalog = new WhatsAppTemplateCatalog(options, 300, () => clock);
    return { catalog, sender: new CloudWhatsAppProvider(options, catalog) };
  };
  const sends = () => stub.requests.filter((r) => r.method === 'POST');
  const lookups = () => stub.requests.filter((r) => r.method === 'GET');

  beforeAll(async () => {
    stub = await startHttpStub((req) => (req.method === 'GET' ? templateListReply(req) : sendReply(req)));
    options = {
      baseUrl: stub.url,
      version: WA_VERSION,
      accessToken: 'EAAG-token',
      phoneNumberId: WA_PHONE_NUMBER_ID,
      businessAccountId: WA_BUSINESS_ACCOUNT_ID,
      timeoutMs: 2_000,
    };
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.requests.length = 0;
    sendReply = (req) => messageAccepted(req, 'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI');
  });

  it("sends the template with components built from its definition, in the definition's language", async () => {
    await expect(provider().sender.send(message)).resolves.toEqual({ sent: true, providerMessageId: 'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI' });
    const [lookup] = lookups();
    const url = new URL(lookup.path, stub.url);
    expect(url.pathname).toBe(`/${WA_VERSION}/${WA_BUSINESS_ACCOUNT_ID}/message_templates`);
    expect(url.searchParams.get('name')).toBe('interview_reminder');
    expect(lookup.headers.authorization).toBe('Bearer EAAG-token');
    const [send] = sends();
    expect(send.path).toBe(`/${WA_VERSION}/${WA_PHONE_NUMBER_ID}/messages`);
    expect(send.headers.authorization).toBe('Bearer EAAG-token');
    expect(send.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '14155550123',
      // Echoed in the message's statuses: a send that got no answer is settled by it.
      biz_opaque_callback_data: 'call_1/pre_call',
      type: 'template',
      template: {
        name: 'interview_reminder',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'Ada' }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: 'Grace' },
              { type: 'text', text: 'Acme' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'tok123' }] },
        ],
      },
    });
  });

  it('looks a template up once per cache period', async () => {
    const { sender } = provider();
    clock = 0;
    await sender.send(message);
    await sender.send(message);
    expect(lookups()).toHaveLength(1);
    clock = 301_000;
    await sender.send(message);
    expect(lookups()).toHaveLength(2);
    expect(sends()).toHaveLength(3);
  });

  it("records a 4xx refusal with WhatsApp's code, its text kept for the log only, without retrying", async () => {
    sendReply = () =>
      graphError(
        400,
        131008,
        '(#131008) Required parameter is missing',
        'body: number of localizable_params (2) does not match the expected number of params (3)',
      );
    await expect(provider().sender.send(message)).resolves.toEqual({
      sent: false,
      code: 131008,
      // What a client may read: who refused, and the code; WhatsApp's words are the log's.
      error: 'WhatsApp refused the request (error 131008)',
      detail:
        '(#131008) Required parameter is missing: body: number of localizable_params (2) does not match the expected number of params (3)',
    });
    sendReply = () => graphError(401, 190, 'Error validating access token: Session has expired');
    await expect(provider().sender.send(message)).resolves.toMatchObject({ sent: false, code: 190 });
  });

  it('throws on 429, 5xx and network failures so the activity retries them with backoff, and says when the message may have gone', async () => {
    const outcomes: Array<[string, boolean]> = [];
    for (const [name, reply] of [
      ['429', graphError(429, 130429, '(#130429) Rate limit hit')],
      ['500', graphError(500, 131000, 'Something went wrong')],
      ['503', graphError(503, 2, 'Service temporarily unavailable')],
      ['cut mid-request', { drop: true as const }],
      ['no answer in time', { hang: true as const }],
    ] as const) {
      sendReply = () => reply;
      const sender = new CloudWhatsAppProvider({ ...options, timeoutMs: 300 }, provider().catalog);
      const err = await sender.send(message).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(UpstreamError);
      outcomes.push([name, outcomeUnknown(err)]);
    }
    // An answer, even an error, says the message was not taken; no answer after the request went says nothing.
    expect(outcomes).toEqual([
      ['429', false],
      ['500', false],
      ['503', false],
      ['cut mid-request', true],
      ['no answer in time', true],
    ]);
    // A server that was never reached took nothing, and neither did a template lookup that got no answer.
    const gone = await startHttpStub(() => ({ status: 200 }));
    await gone.close();
    const closed = new CloudWhatsAppProvider({ ...options, baseUrl: gone.url }, provider().catalog);
    const refused = await closed.send(message).catch((e: unknown) => e);
    expect([refused instanceof UpstreamError, outcomeUnknown(refused)]).toEqual([true, false]);
    const silent = await startHttpStub(() => ({ hang: true }));
    try {
      const slow = { ...options, baseUrl: silent.url, timeoutMs: 300 };
      const lookupUnanswered = await new CloudWhatsAppProvider(slow, new WhatsAppTemplateCatalog(slow, 300))
        .send(message)
        .catch((e: unknown) => e);
      expect([silent.requests.map((r) => r.method), outcomeUnknown(lookupUnanswered)]).toEqual([['GET'], false]);
    } finally {
      await silent.close();
    }
  });

  it('refuses, without sending, a template that is gone, unapproved or whose variables no longer fit', async () => {
    const { sender } = provider();
    await expect(sender.send({ ...message, templateName: 'nope' })).resolves.toEqual({
      sent: false,
      error: 'Template "nope" does not exist in the WhatsApp Business account',
    });
    await expect(sender.send({ ...message, templateName: 'pending_template', variables: { body_1: 'x' } })).resolves.toEqual({
      sent: false,
      error: 'Template "pending_template" is not approved (status PENDING)',
    });
    await expect(sender.send({ ...message, variables: { body_1: 'Ada' } })).resolves.toMatchObject({
      sent: false,
      error: expect.stringContaining('needs "header_1"'),
    });
    expect(sends()).toHaveLength(0);
  });

  it("answers whether a template can carry a request's variables, naming the problem", async () => {
    const { catalog } = provider();
    await expect(catalog.problemWith('missed_you', ['body_1', 'body_2'])).resolves.toBeNull();
    await expect(catalog.problemWith('missed_you', ['body_1'])).resolves.toEqual({ on: 'variables', problem: 'needs "body_2"' });
    await expect(catalog.problemWith('missed', [])).resolves.toEqual({
      on: 'template',
      problem: 'does not exist in the WhatsApp Business account',
    });
  });

  it('remembers at most 500 template names, least recently used out first, and a missing one for a minute', async () => {
    const { catalog } = provider();
    const lookupsOf = (name: string) => lookups().filter((r) => new URL(r.path, stub.url).searchParams.get('name') === name).length;
    // Names a client made up: each looked up once, then answered from memory for a minute.
    await catalog.definitions('made_up_0');
    await catalog.definitions('made_up_0');
    expect(lookupsOf('made_up_0')).toBe(1);
    clock += (MISSING_TEMPLATE_SECONDS + 1) * 1000;
    await catalog.definitions('made_up_0');
    expect(lookupsOf('made_up_0')).toBe(2);
    // A real template is kept for the whole cache time while it is used; 500 other names push out the oldest.
    await catalog.definitions('interview_reminder');
    for (let i = 1; i < TEMPLATE_CACHE_NAMES; i++) await catalog.definitions(`made_up_${i}`);
    await catalog.definitions('interview_reminder'); // used again: now the newest
    await catalog.definitions('made_up_new');
    expect(lookupsOf('interview_reminder')).toBe(1);
    await catalog.definitions('made_up_0'); // the least recently used, forgotten
    expect(lookupsOf('made_up_0')).toBe(3);
    // Lookups of one name at once share one request.
    await Promise.all([catalog.definitions('at_once'), catalog.definitions('at_once'), catalog.definitions('at_once')]);
    expect(lookupsOf('at_once')).toBe(1);
  });
});
