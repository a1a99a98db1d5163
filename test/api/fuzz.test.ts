import fc from 'fast-check';
import type { TObject } from '@sinclair/typebox';
import { CallInitiateRequest, CampaignRequest } from '../../shared/schemas/call-initiate';
import { InviteRequest } from '../../shared/schemas/interview-invite';
import { GenerateQuestionsRequest, GenerateScriptRequest, ParseJdRequest } from '../../shared/schemas/ai';
import { VAPI_EVENTS_PATH, WHATSAPP_EVENTS_PATH } from '../../shared/public-urls';
import { endOfCallReport, hubSignature, statusWebhook, vapiHmacHeaders } from '../helpers/provider-wire';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { startStack, type Stack } from '../helpers/stack';

/**
 * Property-based fuzzing of every endpoint on the real API and database: random and malformed bodies,
 * headers, methods and query strings. Every answer must have a documented status and its family's body
 * shape, never a 5xx or a stack trace; and a request that is refused must write nothing.
 */
const SEED = 20261122;
const APP_SECRET = 'fuzz-app-secret';
const VAPI_SECRET = 'fuzz-vapi-secret';
const JOB = 'job-fuzz';

type Family = 'calls' | 'jobs' | 'plain';
interface Endpoint {
  method: string;
  path: string;
  family: Family;
  /** A valid body, which the generators bend. */
  body?: unknown;
  /** Request fields the operation requires (from its TypeBox schema). */
  required?: readonly string[];
  /** Provider callbacks: signed over the exact bytes, no API key. */
  sign?: (raw: string) => Record<string, string>;
  /** call/initiate and campaigns refuse fields their schema does not name. */
  strict?: boolean;
}

/** The fields a request must carry: required by its TypeBox schema and without a default. */
const mustHave = (schema: TObject) => (schema.required ?? []).filter((f) => !('default' in schema.properties[f]));

const callBody = {
  ats_job_id: JOB,
  first_message: 'Hi {{candidate_first_name}}',
  instructions: 'Ask about availability.',
  candidates: [{ id: 'f1', name: 'Fuzz Candidate', email: 'f1@example.com', phone: '+14155550199' }],
};
const brief = { job_title: 'Data Engineer', job_description: 'Build pipelines in Python and SQL. 3+ years. Remote, full time.' };

const ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/api/public/v1/campaigns',
    family: 'calls',
    body: { ats_job_id: JOB, name: 'Fuzz' },
    required: mustHave(CampaignRequest),
    strict: true,
  },
  {
    method: 'POST',
    path: '/api/public/v1/call/initiate',
    family: 'calls',
    body: callBody,
    required: mustHave(CallInitiateRequest),
    strict: true,
  },
  { method: 'GET', path: '/api/public/v1/calls/call_0123456789abcdef01234567', family: 'calls' },
  {
    method: 'POST',
    path: '/api/public/v1/interview/invite',
    family: 'jobs',
    body: inviteBody([inviteCandidate(1)], { ats_job_id: 'job-fuzz-invite' }),
    required: mustHave(InviteRequest),
  },
  { method: 'GET', path: '/api/public/v1/interviews/int_0123456789abcdef01234567', family: 'jobs' },
  {
    method: 'POST',
    path: '/api/public/v1/ai/parse-jd',
    family: 'jobs',
    body: { job_description: brief.job_description },
    required: mustHave(ParseJdRequest),
  },
  { method: 'POST', path: '/ai/generate-questions', family: 'jobs', body: brief, required: mustHave(GenerateQuestionsRequest) },
  { method: 'POST', path: '/api/public/v1/ai/generate-script', family: 'jobs', body: brief, required: mustHave(GenerateScriptRequest) },
  { method: 'GET', path: '/api/public/v1/workspace', family: 'plain' },
  { method: 'GET', path: '/healthz', family: 'plain' },
  {
    method: 'POST',
    path: VAPI_EVENTS_PATH,
    family: 'plain',
    body: endOfCallReport({ callId: 'call_fuzz', attempt: 1, endedReason: 'assistant-ended-call' }),
    sign: (raw) => vapiHmacHeaders(raw, VAPI_SECRET),
  },
  {
    method: 'POST',
    path: WHATSAPP_EVENTS_PATH,
    family: 'plain',
    body: statusWebhook('wamid.fuzz', 'delivered'),
    sign: (raw) => hubSignature(raw, APP_SECRET),
  },
];

/** Statuses the README documents for a client's requests (no 5xx: nothing here is an outage). */
const DOCUMENTED = new Set([200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 422, 429]);

interface Sent {
  endpoint: Endpoint;
  method: string;
  path: string;
  raw?: string;
  headers: Record<string, string>;
}

const wrongType = fc.oneof(
  fc.boolean(),
  fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { minKeys: 1, maxKeys: 2 }),
);
const queryString = fc
  .option(fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { maxLength: 3 }), { nil: undefined })
  .map((q) => (q && q.length > 0 ? `?${q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : ''));
const contentType = fc.constantFrom(
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
);
const requestId = fc.option(
  fc.string({ maxLength: 200 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  { nil: undefined },
);

/** Every path into a JSON value, for mutating one spot of a valid body. */
function paths(v: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(v)) return [at, ...v.flatMap((x, i) => paths(x, [...at, i]))];
  if (v && typeof v === 'object') return [at, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...at, k]))];
  return [at];
}

function mutate(body: unknown, pick: number, op: 'delete' | 'replace' | 'extra', value: unknown): unknown {
  const copy = structuredClone(body);
  const all = paths(copy).filter((p) => p.length > 0);
  if (all.length === 0) return value;
  const path = all[pick % all.length];
  const parent = path.slice(0, -1).reduce<any>((o, k) => o[k], copy);
  const key = path[path.length - 1];
  if (op === 'delete' && Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (op === 'delete') delete parent[key];
  else if (op === 'replace') parent[key] = value;
  else if (parent && typeof parent === 'object' && !Array.isArray(parent)) parent[`x_fuzz_${String(key)}`] = value;
  return copy;
}

function withAuth(endpoint: Endpoint, raw: string, headers: Record<string, string>, key: string, signed: boolean): Sent['headers'] {
  const auth = endpoint.sign ? (signed ? endpoint.sign(raw) : {}) : { 'x-service-api-key': key };
  return { ...auth, ...headers };
}

describe('fuzzing every endpoint', () => {
  let stack: Stack;
  let key: string;
  const requests = { count: 0 };

  beforeAll(async () => {
    stack = await startStack({
      env: {
        VAPI_WEBHOOK_SECRET: VAPI_SECRET,
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: 'fuzz-verify',
        AI_RATE_LIMIT: '1000',
      },
    });
    key = (await stack.newWorkspace('Fuzz')).key;
    expect((await stack.request('POST', '/api/public/v1/campaigns', { key, body: { ats_job_id: JOB, name: 'Fuzz' } })).status).toBe(201);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function send(s: Sent): Promise<{ status: number; text: string; contentType: string }> {
    requests.count++;
    const res = await fetch(stack.url + s.path, {
      method: s.method,
      headers: s.headers,
      body: s.method === 'GET' || s.method === 'HEAD' ? undefined : s.raw,
    });
    return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '' };
  }

  /** The answer's status is documented and its body has its family's shape, with nothing of our internals. */
  function expectDocumented(s: Sent, res: { status: number; text: string; contentType: string }): void {
    const where = `${s.method} ${s.path} ${JSON.stringify(s.headers)} ${String(s.raw).slice(0, 300)}`;
    expect({ where, status: res.status, documented: DOCUMENTED.has(res.status) }).toEqual({ where, status: res.status, documented: true });
    expect(res.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|Mongo[A-Z]\w*Error|TypeError|ReferenceError/);
    if (s.method === 'HEAD' || s.method === 'OPTIONS' || res.status === 204) return;
    expect({ where, type: res.contentType }).toEqual({ where, type: expect.stringMatching(/^application\/json/) });
    const body = JSON.parse(res.text);
    if (s.path.split('?')[0] === '/healthz') return;
    expect({ where, success: typeof body.success }).toEqual({ where, success: 'boolean' });
    if (res.status < 400) return;
    expect({ where, body }).toEqual({ where, body: expect.objectContaining({ success: false, message: expect.any(String) }) });
    const family = DOCUMENTED.has(res.status) && res.status !== 405 && res.status !== 404 ? s.endpoint.family : 'plain';
    if (family === 'calls' && res.status === 400) {
      expect({ where, body }).toEqual({
        where,
        body: expect.objectContaining({
          code: 'VALIDATION_ERROR',
          errors: expect.arrayContaining([{ field: expect.any(String), message: expect.any(String) }]),
        }),
      });
    }
    if (family === 'calls' && res.status === 401) expect(body).toMatchObject({ error: 'INVALID_API_KEY' });
    if (family === 'jobs' && res.status === 422) {
      expect({ where, body }).toEqual({
        where,
        body: expect.objectContaining({ errors: expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]) }),
      });
    }
  }

  const counts = async () => {
    const names = (await stack.db.db.listCollections().toArray()).map((c) => c.name).sort();
    return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await stack.db.db.collection(n).countDocuments()] as const)));
  };

  it('answers 10,000+ random and malformed requests with documented statuses and shapes, and writes nothing for the refused ones', async () => {
    const endpoint = fc.constantFrom(...ENDPOINTS);
    const common = fc.record({ ct: contentType, rid: requestId, q: queryString });
    const headersOf = (c: { ct: string; rid?: string }) => ({
      ...(c.ct ? { 'content-type': c.ct } : {}),
      ...(c.rid !== undefined ? { 'x-request-id': c.rid } : {}),
    });

    // Refused for sure: a bad or missing key or signature, a broken required field, an unknown field where
    // the schema is strict, or bytes that are not JSON. None of them may write anything.
    const refused: fc.Arbitrary<Sent> = fc
      .tuple(
        endpoint.filter((e) => e.body !== undefined),
        common,
        fc.nat(),
        wrongType,
        fc.constantFrom('badKey', 'noKey', 'dropRequired', 'wrongType', 'unknownField', 'notJson'),
        fc.string({ maxLength: 40 }),
      )
      .map(([e, c, pick, value, breaker, junk]) => {
        const required = e.required ?? [];
        let body = e.body as Record<string, unknown>;
        let raw: string | undefined;
        // A breaker that does not apply to this endpoint falls back to a wrong key (or signature).
        let credential: 'valid' | 'wrong' | 'none' = 'valid';
        if (breaker === 'noKey') credential = 'none';
        else if (breaker === 'dropRequired' && required.length > 0)
          body = Object.fromEntries(Object.entries(body).filter(([f]) => f !== required[pick % required.length]));
        else if (breaker === 'wrongType' && required.length > 0) body = { ...body, [required[pick % required.length]]: value };
        else if (breaker === 'unknownField' && e.strict) body = { ...body, [`x_fuzz_${junk.replace(/\W/g, '')}`]: value };
        else if (breaker === 'notJson' && !e.sign) raw = `{${junk}`;
        else credential = 'wrong';
        raw ??= JSON.stringify(body);
        const auth = e.sign
          ? credential === 'valid'
            ? e.sign(raw)
            : credential === 'wrong'
              ? e.sign(`${raw} `)
              : {}
          : credential === 'none'
            ? {}
            : { 'x-service-api-key': credential === 'valid' ? key : `hk_${'A'.repeat(43)}` };
        return { endpoint: e, method: e.method, path: e.path + c.q, raw, headers: { ...auth, ...headersOf(c) } };
      });

    const before = await counts();
    await fc.assert(
      fc.asyncProperty(fc.array(refused, { minLength: 10, maxLength: 10 }), async (batch) => {
        const answers = await Promise.all(batch.map(send));
        batch.forEach((s, i) => {
          expectDocumented(s, answers[i]);
          expect(`${answers[i].status} ${s.method} ${s.path} ${String(s.raw).slice(0, 300)} ${answers[i].text.slice(0, 200)}`).toMatch(
            /^4\d\d /,
          );
        });
      }),
      { seed: SEED, numRuns: 450, endOnFailure: true },
    );
    expect(await counts()).toEqual(before);

    // Anything at all: a bent valid body, random JSON, random bytes, any method, unknown paths, signed
    // callbacks with random content. Some of these are valid and are carried out; none may fail.
    const anyBody = fc.oneof(
      {
        weight: 16,
        arbitrary: fc
          .tuple(
            fc.nat(),
            fc.constantFrom('delete', 'replace', 'extra') as fc.Arbitrary<'delete' | 'replace' | 'extra'>,
            fc.jsonValue({ maxDepth: 2 }),
          )
          .map((m) => ({ bend: m })),
      },
      { weight: 8, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({ raw: JSON.stringify(v) ?? 'null' })) },
      { weight: 4, arbitrary: fc.string({ maxLength: 60 }).map((raw) => ({ raw })) },
      { weight: 1, arbitrary: fc.constant({ raw: 'x'.repeat(1024 * 1024 + 10) }) },
    );
    const method = fc.oneof(
      { weight: 8, arbitrary: fc.constant(null) },
      { weight: 2, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
    );
    const path = fc.oneof(
      { weight: 9, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.webSegment().map((s) => `/api/public/v1/${s}`) },
    );
    const anything: fc.Arbitrary<Sent> = fc
      .tuple(endpoint, common, anyBody, method, path, fc.boolean(), fc.boolean())
      .map(([e, c, b, m, p, validKey, signed]) => {
        const raw = 'raw' in b ? b.raw : JSON.stringify(mutate(e.body ?? {}, b.bend[0], b.bend[1], b.bend[2]));
        return {
          endpoint: e,
          method: m ?? e.method,
          path: (p ?? e.path) + c.q,
          raw,
          headers: withAuth(e, raw, headersOf(c), validKey ? key : 'hk_wrong', signed),
        };
      });
    await fc.assert(
      fc.asyncProperty(fc.array(anything, { minLength: 10, maxLength: 10 }), async (batch) => {
        const answers = await Promise.all(batch.map(send));
        batch.forEach((s, i) => expectDocumented(s, answers[i]));
      }),
      { seed: SEED + 1, numRuns: 600, endOnFailure: true },
    );
    expect(requests.count).toBeGreaterThanOrEqual(10_000);
  }, 900_000);
});
