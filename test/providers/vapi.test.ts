import { VapiVoiceProvider } from '../../providers/voice/vapi';
import type { DialRequest } from '../../providers/voice/port';
import { startHttpStub, type HttpStub, type StubReply, type RecordedRequest } from '../helpers/http-stub';
import { VAPI_PHONE_NUMBER_ID, vapiBadRequest, vapiCall, vapiCreateReply, vapiOptions } from '../helpers/provider-wire';

const options = vapiOptions;

const fullRequest: DialRequest = {
  callId: 'call_0123456789abcdef01234567',
  attempt: 2,
  to: '+14155550123',
  candidateName: 'Ada Lovelace',
  firstMessage: 'Hi Ada, this is Grace from Acme',
  instructions: 'You are recruiting for Acme. Ask Ada about her availability.',
  assistantSettings: {
    gender: 'Male',
    language: { code: 'en-US', provider: 'deepgram', model: 'nova-3', label: 'English (US)' },
    llm: { provider: 'openai', model: 'gpt-4o', temperature: 0.2 },
    tts: {
      provider: '11labs',
      model: 'eleven_turbo_v2_5',
      id: 'pNInz6obpgDQGcFmaJgB',
      name: 'Adam',
      gender: 'Male',
      language: 'en',
      speed: 1.1,
    },
    effect: { name: 'Office', volume: 0.3 },
    tools: ['endCall', 'dtmf', 'crm_lookup'],
    min_endpointing_delay: 0.6,
    max_endpointing_delay: 8,
  },
  extractVariables: [
    { label: 'notes', type: 'string', description: 'Anything notable', format_example: 'Prefers mornings' },
    { label: 'notice', type: 'single_select', description: 'Notice period', choices: ['none', '1 month', '3 months'] },
    { label: 'available', type: 'boolean', description: 'Available for the role?' },
    { label: 'years', type: 'integer', description: 'Years of experience' },
    { label: 'salary', type: 'number', description: 'Expected salary in thousands' },
    { label: 'languages', type: 'array', description: 'Languages spoken' },
    { label: 'start_date', type: 'date', description: 'Earliest start date', format_example: '2026-01-31' },
    { label: 'callback_at', type: 'datetime', description: 'When to call back' },
  ],
  customFields: {},
};

describe("Vapi adapter against a local server speaking Vapi's API", () => {
  let stub: HttpStub;
  let reply: (req: RecordedRequest, n: number) => StubReply;
  beforeAll(async () => {
    stub = await startHttpStub((req, n) => reply(req, n));
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.requests.length = 0;
    reply = vapiCreateReply;
  });

  it('creates the call with a transient assistant mapped field by field from every setting and variable type', async () => {
    const result = await new VapiVoiceProvider(options(stub.url)).dial(fullRequest);
    expect(result).toEqual({ accepted: true, providerCallId: expect.any(String) });
    expect(stub.requests).toHaveLength(1);
    const [req] = stub.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/call');
    expect(req.headers.authorization).toBe('Bearer vapi-private-key');
    expect(req.body).toEqual({
      name: 'call_0123456789abcdef01234567#2',
      phoneNumberId: VAPI_PHONE_NUMBER_ID,
      customer: { number: '+14155550123', name: 'Ada Lovelace' },
      assistant: {
        name: 'Recruiter',
        firstMessage: 'Hi Ada, this is Grace from Acme',
        firstMessageMode: 'assistant-speaks-first',
        maxDurationSeconds: 900,
        model: {
          provider: 'openai',
          model: 'gpt-4o',
          temperature: 0.2,
          messages: [{ role: 'system', content: 'You are recruiting for Acme. Ask Ada about her availability.' }],
          tools: [{ type: 'endCall' }, { type: 'dtmf' }],
        },
        voice: { provider: '11labs', voiceId: 'pNInz6obpgDQGcFmaJgB', model: 'eleven_turbo_v2_5', speed: 1.1 },
        transcriber: { provider: 'deepgram', language: 'en-US', model: 'nova-3' },
        backgroundSound: 'office',
        startSpeakingPlan: { waitSeconds: 0.6, transcriptionEndpointingPlan: { onNoPunctuationSeconds: 3 } },
        analysisPlan: {
          structuredDataPlan: {
            enabled: true,
            schema: {
              type: 'object',
              properties: {
                notes: { type: 'string', description: 'Anything notable (format example: Prefers mornings)' },
                notice: { type: 'string', enum: ['none', '1 month', '3 months'], description: 'Notice period' },
                available: { type: 'boolean', description: 'Available for the role?' },
                years: { type: 'integer', description: 'Years of experience' },
                salary: { type: 'number', description: 'Expected salary in thousands' },
                languages: { type: 'array', items: { type: 'string' }, description: 'Languages spoken' },
                start_date: { type: 'string', format: 'date', description: 'Earliest start date (format example: 2026-01-31)' },
                callback_at: { type: 'string', format: 'date-time', description: 'When to call back' },
              },
            },
          },
        },
        serverMessages: ['end-of-call-report', 'status-update'],
        server: { url: 'https://hiring.test/api/public/v1/providers/vapi/events', headers: { 'x-vapi-secret': 'whsec-vapi' } },
        metadata: { call_id: 'call_0123456789abcdef01234567', attempt: 2, direction: 'outbound' },
      },
    });
  });

  it('uses the default voice of the requested gender, the default model and transcriber, and no analysis without variables', async () => {
    const provider = new VapiVoiceProvider({ ...options(stub.url), serverCredentialId: 'cred_123' });
    await provider.dial({ ...fullRequest, assistantSettings: { gender: 'Female', effect: { name: 'Keyboard' } }, extractVariables: [] });
    await provider.dial({ ...fullRequest, assistantSettings: null, extractVariables: [] });
    const [female, none] = stub.requests.map((r) => r.body.assistant);
    expect(female.voice).toEqual({ provider: 'vapi', voiceId: 'Savannah' });
    expect(female.backgroundSound).toBe('off');
    expect(female.model).toEqual({
      provider: 'openai',
      model: 'gpt-4o-mini',
      temperature: 0.4,
      messages: [expect.objectContaining({ role: 'system' })],
    });
    expect(female.transcriber).toEqual({ provider: 'deepgram', model: 'nova-2', language: 'en' });
    expect(female.server).toEqual({ url: expect.any(String), credentialId: 'cred_123' });
    expect(female).not.toHaveProperty('analysisPlan');
    expect(female).not.toHaveProperty('startSpeakingPlan');
    expect(none.voice).toEqual({ provider: 'vapi', voiceId: 'Savannah' });
    expect(none).not.toHaveProperty('backgroundSound');
  });

  it('reports a refused number as a non-retryable invalid_number and other refusals as provider_error', async () => {
    reply = () => vapiBadRequest(['customer.number must be a valid phone number in the E.164 format']);
    await expect(new VapiVoiceProvider(options(stub.url)).dial(fullRequest)).resolves.toEqual({
      accepted: false,
      reason: 'invalid_number',
      detail: 'customer.number must be a valid phone number in the E.164 format',
    });
    reply = () => vapiBadRequest(['assistant.model.provider must be one of the following values: openai, anthropic']);
    await expect(new VapiVoiceProvider(options(stub.url)).dial(fullRequest)).resolves.toMatchObject({
      accepted: false,
      reason: 'provider_error',
    });
  });

  it('throws on 5xx and dropped connections so the activity retries, without retrying inside the SDK', async () => {
    for (const r of [{ status: 503, body: 'upstream unavailable' }, { drop: true as const }]) {
      stub.requests.length = 0;
      reply = () => r;
      await expect(new VapiVoiceProvider(options(stub.url)).dial(fullRequest)).rejects.toThrow();
      expect(stub.requests).toHaveLength(1);
    }
  });

  it("answers Vapi's concurrency cap (429) as busy, with its Retry-After, or 5 s without one", async () => {
    stub.requests.length = 0;
    reply = () => ({ status: 429, headers: { 'retry-after': '12' }, body: { message: 'Over Concurrency Limit.', statusCode: 429 } });
    await expect(new VapiVoiceProvider(options(stub.url)).dial(fullRequest)).resolves.toEqual({
      accepted: false,
      reason: 'provider_error',
      busy: true,
      retryAfterMs: 12_000,
      detail: 'Over Concurrency Limit.',
    });
    reply = () => ({ status: 429, body: { message: 'Too Many Requests', statusCode: 429 } });
    await expect(new VapiVoiceProvider(options(stub.url)).dial(fullRequest)).resolves.toMatchObject({ busy: true, retryAfterMs: 5_000 });
    expect(stub.requests).toHaveLength(2);
  });

  it('finds a call an interrupted dial placed by listing calls of the phone number since the attempt began', async () => {
    const since = new Date('2026-11-22T10:00:00.000Z');
    reply = () => ({
      status: 200,
      body: [vapiCall({ id: 'other', name: 'call_x#1' }), vapiCall({ id: 'mine', name: `${fullRequest.callId}#2` })],
    });
    const provider = new VapiVoiceProvider(options(stub.url));
    await expect(provider.findDial(fullRequest.callId, 2, since)).resolves.toBe('mine');
    await expect(provider.findDial(fullRequest.callId, 3, since)).resolves.toBeNull();
    const url = new URL(stub.requests[0].path, stub.url);
    expect(url.pathname).toBe('/call');
    expect(url.searchParams.get('phoneNumberId')).toBe(VAPI_PHONE_NUMBER_ID);
    expect(url.searchParams.get('createdAtGe')).toBe('2026-11-22T09:55:00.000Z');
  });

  it('fetches how a call ended with GET /call/{id}, and nothing while it is still going', async () => {
    const ids = { callId: fullRequest.callId, attempt: 2 };
    const assistant = { metadata: { call_id: ids.callId, attempt: 2, direction: 'outbound' } };
    reply = () => ({ status: 200, body: vapiCall({ id: 'c1', status: 'in-progress', assistant }) });
    const provider = new VapiVoiceProvider(options(stub.url));
    await expect(provider.fetchReport('c1', ids)).resolves.toBeNull();
    expect(stub.requests[0]).toMatchObject({ method: 'GET', path: '/call/c1' });
    reply = () => ({
      status: 200,
      body: vapiCall({
        id: 'c1',
        status: 'ended',
        endedReason: 'customer-busy',
        startedAt: '2026-11-22T10:00:00.000Z',
        endedAt: '2026-11-22T10:00:04.000Z',
        artifact: { messages: [], recordingUrl: 'https://storage.vapi.ai/r.wav' },
        assistant,
      }),
    });
    await expect(provider.fetchReport('c1', ids)).resolves.toMatchObject({
      ...ids,
      result: 'declined',
      endedReason: 'customer-busy',
      providerCallId: 'c1',
      recordingUrl: 'https://storage.vapi.ai/r.wav',
    });
  });

  it("keeps nothing of a fetched call whose assistant's metadata names another call or attempt, or none, even named like ours", async () => {
    const ids = { callId: fullRequest.callId, attempt: 2 };
    const provider = new VapiVoiceProvider(options(stub.url));
    const ended = { id: 'c2', status: 'ended', endedReason: 'assistant-ended-call', name: `${ids.callId}#2` };
    for (const assistant of [{ metadata: { call_id: 'call_other', attempt: 2 } }, { metadata: { call_id: ids.callId, attempt: 1 } }, {}]) {
      reply = () => ({ status: 200, body: vapiCall({ ...ended, assistant }) });
      await expect(provider.fetchReport('c2', ids)).resolves.toBe('foreign');
    }
  });
});
