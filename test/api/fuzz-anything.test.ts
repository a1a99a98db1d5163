import fc from 'fast-check';
import { SEED, ENDPOINTS, type Sent, mutate, withAuth } from '../helpers/fuzz-requests';
import { fuzzStack, common, headersOf } from '../helpers/fuzz-stack';

/**
 * Property-based fuzzing of every endpoint on the real API and database, requests of any kind (with
 * test/api/fuzz-refused.test.ts, 10,500 in all): random and malformed bodies, headers, methods and query
 * strings. Every answer has a documented status and its family's body shape, never a 5xx or a stack trace.
 */
describe('fuzzing every endpoint: anything at all', () => {
  const fuzz = fuzzStack();
  const { send, expectDocumented } = fuzz;

  it('answers 6,000 random and malformed requests, valid ones among them, with documented statuses and shapes', async () => {
    const key = fuzz.key;
    const endpoint = fc.constantFrom(...ENDPOINTS);
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
    expect(fuzz.requests.count).toBeGreaterThanOrEqual(6_000);
  }, 900_000);
});
