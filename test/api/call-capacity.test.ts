import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { attemptsAtOnce } from '../helpers/attempts-at-once';
import { callMany, storedCalls } from '../helpers/call-capacity';

/**
 * max_concurrent_calls on the real stack, with the simulator's one-second calls: the default cap over 50 calls
 * (a cap the admin set, and one raised while calls wait, are test/api/call-capacity-admin.test.ts).
 */
describe("a workspace's calling cap", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '1' } });
  });
  afterAll(() => stack?.stop());

  const stored = (ids: string[]) => storedCalls(stack, ids);

  it('never has more than 10 of 50 calls in an attempt at once by default, and the rest wait their turn', async () => {
    const ws = await stack.newWorkspace('Acme');
    const ids = await callMany(stack, ws.key, 'job-cap', 50);
    const seenWaiting = await waitFor(
      async () => (await stored(ids)).filter((c) => c.status === 'waiting_for_capacity').length,
      (n) => n > 0,
      20_000,
    );
    expect(seenWaiting).toBeGreaterThan(0);
    const calls = await waitFor(
      () => stored(ids),
      (cs) => cs.every((c) => c.status === 'completed'),
      90_000,
    );
    expect(calls.map((c) => c.status)).toEqual(Array(50).fill('completed'));
    expect(calls.every((c) => c.attempts.length === 1)).toBe(true);
    const most = attemptsAtOnce(calls);
    expect(most).toBeLessThanOrEqual(10);
    expect(most).toBeGreaterThanOrEqual(5);
    // Every slot is given back: no claim of the workspace's ten is left.
    const slots = await Promise.all(Array.from({ length: 10 }, (_, i) => stack.db.claims.findOne({ _id: `call-slot/${ws.id}/${i}` })));
    expect(slots.filter((c) => c !== null)).toEqual([]);
  }, 120_000);
});
