import { startStack, type Stack } from './stack';
import { startHttpStub, type HttpStub } from './http-stub';
import { waitFor } from './wait';
import {
  FALLBACK_TEMPLATE,
  PRE_CALL_TEMPLATE,
  graphError,
  hubSignature,
  messageAccepted,
  templateListReply,
  vapiCall,
  vapiCreateReply,
  vapiHmacHeaders,
  VAPI_PHONE_NUMBER_ID,
  WA_BUSINESS_ACCOUNT_ID,
  WA_PHONE_NUMBER_ID,
  WA_VERSION,
} from './provider-wire';

export const VAPI_SECRET = 'whsec-vapi-test';
export const APP_SECRET = 'meta-app-secret';
export const VERIFY_TOKEN = 'verify-me';
export const VAPI_EVENTS = '/api/public/v1/providers/vapi/events';
export const WA_EVENTS = '/api/public/v1/providers/whatsapp/events';
export const job = 'job-real-providers';

export const preCall = PRE_CALL_TEMPLATE;
export const fallback = FALLBACK_TEMPLATE;
export const extractVariables = [
  { label: 'available', type: 'boolean', description: 'Is the candidate available?' },
  { label: 'years', type: 'integer', description: 'Years of experience' },
  { label: 'start_date', type: 'date', description: 'Earliest start date' },
];
export const candidate = (i: number) => ({
  id: `rp-${i}`,
  name: `Grace Hopper ${i}`.replace(/ \d+$/, ''),
  email: `grace.${i}@example.com`,
  phone: `+1415555${String(2000 + i)}`,
});
export const initiate = (i: number, settings: Record<string, unknown>) => ({
  ats_job_id: job,
  candidates: [candidate(i)],
  first_message: 'Hi {{candidate_first_name}}, this is {{sender_first_name}}',
  instructions: 'You are recruiting for {{sender_company}}.',
  extract_variables: extractVariables,
  call_settings: settings,
});

/**
 * The bench of the production-adapter tests:
 * The real API, worker, database and Temporal with both production adapters pointed at local servers that
 * speak Vapi's and the WhatsApp Cloud API's wire formats.
 */
export function realProvidersBench(env: Record<string, string> = {}) {
  const bench = {} as { stack: Stack; key: string; workspaceId: string; vapi: HttpStub; graph: HttpStub };
  /** What GET /call/{id} answers for each Vapi call id; a call not listed is still in progress. */
  const vapiState = new Map<string, Record<string, unknown>>();
  /** How many create-calls to a customer number Vapi refuses as over its concurrency cap (429) first. */
  const vapiBusy = new Map<string, number>();
  /** Customer numbers whose create-call Vapi refuses (400), with the refusal's words. */
  const vapiRefusals = new Map<string, string>();

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    bench.stack.request('POST', path, { raw: JSON.stringify(body), headers });
  const signedVapi = (body: unknown) => post(VAPI_EVENTS, body, vapiHmacHeaders(JSON.stringify(body), VAPI_SECRET));
  const signedWa = (body: unknown) => post(WA_EVENTS, body, hubSignature(JSON.stringify(body), APP_SECRET));
  const dialOf = (callId: string) =>
    waitFor(async () => bench.vapi.requests.find((r) => r.method === 'POST' && r.body?.assistant?.metadata?.call_id === callId), Boolean);
  const providerCallIdOf = async (callId: string) =>
    (await waitFor(
      () => bench.stack.db.calls.findOne({ _id: callId }),
      (c) => Boolean(c?.attempts[0]?.provider_call_id),
    ))!.attempts[0].provider_call_id!;
  const call = (id: string) => bench.stack.request('GET', `/api/public/v1/calls/${id}`, { key: bench.key }).then((r) => r.body.data);
  const start = async (i: number, settings: Record<string, unknown>) => {
    const res = await bench.stack.request('POST', '/api/public/v1/call/initiate', { key: bench.key, body: initiate(i, settings) });
    expect(res.status).toBe(200);
    expect(res.body.data.calls[0].status).toBe('success');
    return res.body.data.calls[0].id as string;
  };

  beforeAll(async () => {
    bench.vapi = await startHttpStub((req) => {
      const busy = vapiBusy.get(req.body?.customer?.number) ?? 0;
      if (req.method === 'POST' && req.path === '/call' && busy > 0) {
        vapiBusy.set(req.body.customer.number, busy - 1);
        return {
          status: 429,
          headers: { 'retry-after': '1' },
          body: { message: 'Over Concurrency Limit.', error: 'Too Many Requests', statusCode: 429 },
        };
      }
      const refusal = vapiRefusals.get(req.body?.customer?.number);
      if (req.method === 'POST' && req.path === '/call' && refusal) {
        return { status: 400, body: { message: [refusal], error: 'Bad Request', statusCode: 400 } };
      }
      if (req.method === 'POST' && req.path === '/call') return vapiCreateReply(req);
      if (req.method === 'GET' && req.path.startsWith('/call?')) return { status: 200, body: [] };
      const id = /^\/call\/([^/?]+)$/.exec(req.path)?.[1];
      // Vapi deletes a call asynchronously; here the first DELETE of a call finds Vapi down, the next one works.
      if (req.method === 'DELETE' && id) {
        const tries = bench.vapi.requests.filter((r) => r.method === 'DELETE' && r.path === req.path).length;
        return tries <= 1
          ? { status: 503, body: { message: 'Service Unavailable', statusCode: 503 } }
          : { status: 200, body: vapiCall({ id, status: 'ended' }) };
      }
      if (req.method === 'GET' && id) return { status: 200, body: vapiState.get(id) ?? vapiCall({ id, status: 'in-progress' }) };
      return { status: 404, body: { message: 'Not Found', statusCode: 404 } };
    });
    bench.graph = await startHttpStub((req) => {
      if (req.method === 'GET' && req.path.includes('name=graph_down')) return graphError(503, 2, 'Service temporarily unavailable');
      return req.method === 'GET' ? templateListReply(req) : messageAccepted(req);
    });
    bench.stack = await startStack({
      worker: true,
      env: {
        VOICE_PROVIDER: 'vapi',
        VAPI_API_KEY: 'vapi-private-key',
        VAPI_BASE_URL: bench.vapi.url,
        VAPI_PHONE_NUMBER_ID,
        VAPI_WEBHOOK_SECRET: VAPI_SECRET,
        WHATSAPP_PROVIDER: 'cloud',
        WHATSAPP_ACCESS_TOKEN: 'EAAG-token',
        WHATSAPP_BASE_URL: bench.graph.url,
        WHATSAPP_API_VERSION: WA_VERSION,
        WHATSAPP_PHONE_NUMBER_ID: WA_PHONE_NUMBER_ID,
        WHATSAPP_BUSINESS_ACCOUNT_ID: WA_BUSINESS_ACCOUNT_ID,
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
        // Vapi ends a call after 10 s; an attempt without a report is looked up at Vapi 2 s later.
        VAPI_MAX_CALL_SECONDS: '10',
        VAPI_REPORT_GRACE_SECONDS: '2',
        // An erasure that waits for an attempt under way answers 202 after 8 s, not 20.
        ERASURE_ANSWER_WITHIN_MS: '8000',
        ...env,
      },
    });
    const workspace = await bench.stack.newWorkspace('Acme');
    bench.key = workspace.key;
    bench.workspaceId = workspace.id;
    const campaign = await bench.stack.request('POST', '/api/public/v1/campaigns', {
      key: bench.key,
      body: { ats_job_id: job, name: 'Support', company_name: 'Acme Robotics' },
    });
    expect(campaign.status).toBe(201);
  });
  afterAll(async () => {
    await bench.stack?.stop();
    await bench.vapi?.close();
    await bench.graph?.close();
  });

  return Object.assign(bench, { vapiState, vapiBusy, vapiRefusals, post, signedVapi, signedWa, dialOf, providerCallIdOf, call, start });
}
