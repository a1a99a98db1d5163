import fc from 'fast-check';
import { SEED, ENDPOINTS, type Sent, wrongType } from '../helpers/fuzz-requests';
import { fuzzStack, common, headersOf } from '../helpers/fuzz-stack';

/**
 * Property-based fuzzing of every endpoint on the real API and database, the requests refused for sure
 * (test/api/fuzz-anything.test.ts sends the rest of the 10,500): each answer has a documented status and its
 * family's body shape, never a 5xx or a stack trace, and none of them writes anything.
 */
describe('fuzzing every endpoint: requests refused for sure', () => {
  const fuzz = fuzzStack();
  const { send, expectDocumented, counts } = fuzz;

  it('answers 4,500 requests refused for sure (a bad or missing key or signature, a broken field, not JSON) with documented statuses and shapes, and writes nothing', async () => {
    const key = fuzz.key;
    const endpoint = fc.constantFrom(...ENDPOINTS);

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
        batch.forEach((s, i) => expectDocumented(s, answers[i], { refused: true }));
      }),
      { seed: SEED, numRuns: 450, endOnFailure: true },
    );
    expect(await counts()).toEqual(before);

    expect(fuzz.requests.count).toBeGreaterThanOrEqual(4_500);
  }, 900_000);

  // A request's text is read in time linear in its length, whatever it holds (docs/security.md): texts built of
  // the pieces that make backtracking patterns quadratic, at the longest length allowed, each answered within
  // a budget over a floor measured here, the same request with plain text of the same length. Both in CPU time
  // of this process, which runs the API and nothing else meanwhile: the wall time of a request on a loaded
  // machine (the suite beside it) went 16 times the floor's once, the CPU it took never does; backtracking's
  // quadratic time on 20,000 characters is seconds of CPU.
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
      return {
        endpoint: e,
        method: 'POST',
        path: e.path,
        raw,
        headers: { 'content-type': 'application/json', 'x-service-api-key': fuzz.key },
      };
    };
    const timed = async (s: Sent) => {
      const started = process.cpuUsage();
      const res = await send(s);
      const { user, system } = process.cpuUsage(started);
      expectDocumented(s, res);
      return { ms: (user + system) / 1_000, status: res.status };
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
