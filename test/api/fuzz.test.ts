import fc from 'fast-check';
import { startStack, type Stack } from '../helpers/stack';
import { contractProblems } from '../helpers/api-contract';
import {
  SEED,
  APP_SECRET,
  VAPI_SECRET,
  JOB,
  ENDPOINTS,
  DOCUMENTED,
  type Sent,
  wrongType,
  queryString,
  contentType,
  requestId,
  mutate,
  withAuth,
} from '../helpers/fuzz-requests';

/**
 * Property-based fuzzing of every endpoint on the real API and database: random and malformed bodies,
 * headers, methods and query strings. Every answer must have a documented status and its family's body
 * shape, never a 5xx or a stack trace; and a request that is refused must write nothing.
 */
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

  async function send(s: Sent): Promise<{ status: number; text: string; contentType: string; headers: Headers }> {
    requests.count++;
    const res = await fetch(stack.url + s.path, {
      method: s.method,
      headers: s.headers,
      body: s.method === 'GET' || s.method === 'HEAD' ? undefined : s.raw,
    });
    return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '', headers: res.headers };
  }

  /** The answer's status is documented and its body has its family's shape, with nothing of our internals. */
  function expectDocumented(s: Sent, res: { status: number; text: string; contentType: string; headers: Headers }): void {
    const where = `${s.method} ${s.path} ${JSON.stringify(s.headers)} ${String(s.raw).slice(0, 300)}`;
    let parsed: unknown = res.text;
    try {
      parsed = JSON.parse(res.text);
    } catch {
      /* a body that is not JSON is caught below */
    }
    expect({ where, problems: contractProblems(s.method, s.path, res.status, res.headers, parsed) }).toEqual({ where, problems: [] });
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

  // A request's text is read in time linear in its length, whatever it holds (docs/security.md): texts built of
  // the pieces that make backtracking patterns quadratic, at the longest length allowed, each answered within
  // a budget over a floor measured here, the same request with plain text of the same length.
  it('reads adversarial texts of 20,000 characters within a time budget', async () => {
    const LENGTH = 20_000;
    const invite = ENDPOINTS.find((e) => e.path.endsWith('/interview/invite'))!;
    const parse = ENDPOINTS.find((e) => e.path.endsWith('/ai/parse-jd'))!;
    const sent = (e: (typeof ENDPOINTS)[number], text: string): Sent => {
      // The invitation is refused for its candidate's email, after every field was read: it writes nothing.
      const body =
        e === invite
          ? { ...(e.body as object), job_description: text, candidates: [{ id: 'c1', name: 'Ann Lee', email: 'not-an-email' }] }
          : { ...(e.body as object), job_description: text };
      const raw = JSON.stringify(body);
      return { endpoint: e, method: 'POST', path: e.path, raw, headers: { 'content-type': 'application/json', 'x-service-api-key': key } };
    };
    const timed = async (s: Sent) => {
      const started = performance.now();
      const res = await send(s);
      expectDocumented(s, res);
      return { ms: performance.now() - started, status: res.status };
    };
    const plain = 'Night shift warehouse operative in Leeds, forklift licence. '.repeat(LENGTH / 50).slice(0, LENGTH);
    const floor: Record<string, number> = {};
    for (const e of [invite, parse]) {
      await timed(sent(e, plain)); // warm
      floor[e.path] = Math.min(...(await Promise.all([0, 1, 2].map(async () => (await timed(sent(e, plain))).ms))));
    }
    const pieces = fc.constantFrom('a.', '[', ',', '(', '[](', 'a:/', 'St. ', 'I\n', 'Go ', 'www.', ' ', '-');
    await fc.assert(
      fc.asyncProperty(fc.array(pieces, { minLength: 1, maxLength: 3 }), fc.constantFrom(invite, parse), async (parts, e) => {
        const unit = parts.join('');
        const text = unit.repeat(Math.ceil(LENGTH / unit.length)).slice(0, LENGTH);
        const { ms, status } = await timed(sent(e, text));
        expect({ unit, path: e.path, status: status < 500, withinBudget: ms < 100 + 10 * floor[e.path], ms }).toEqual({
          unit,
          path: e.path,
          status: true,
          withinBudget: true,
          ms,
        });
      }),
      { seed: SEED + 2, numRuns: 40, endOnFailure: true },
    );
  }, 120_000);
});
