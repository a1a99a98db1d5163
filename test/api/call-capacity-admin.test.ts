import { adminStores } from '../../composition/admin-stores';
import { claim, release } from '../../infra/claims';
import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { attemptsAtOnce } from '../helpers/attempts-at-once';
import { callMany, storedCalls } from '../helpers/call-capacity';
import { runAdmin } from '../helpers/admin-cli';
import { capacityWaitMs } from '../../shared/calls/capacity';

/**
 * max_concurrent_calls on the real stack, with the simulator's one-second calls: a cap the admin set, and one
 * raised with workspace:update while calls wait (the default cap over 50 calls is test/api/call-capacity.test.ts).
 */
describe("a workspace's calling cap, as the admin sets it", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '1' } });
  });
  afterAll(() => stack?.stop());

  const stored = (ids: string[]) => storedCalls(stack, ids);

  it('holds to a cap the admin set', async () => {
    const ws = await stack.newWorkspace('Initech');
    await adminStores(stack.db).workspaces.updateSettings(ws.id, { max_concurrent_calls: 1 });
    const ids = await callMany(stack, ws.key, 'job-one', 3);
    const calls = await waitFor(
      () => stored(ids),
      (cs) => cs.every((c) => c.status === 'completed'),
      60_000,
    );
    expect(attemptsAtOnce(calls)).toBe(1);
  }, 90_000);

  it('lets the calls waiting for capacity through within a second once workspace:update raises the cap', async () => {
    const ws = await stack.newWorkspace('Hooli');
    await adminStores(stack.db).workspaces.updateSettings(ws.id, { max_concurrent_calls: 1 });
    // The workspace's one slot is held by something else: every call waits.
    const held = { key: `call-slot/${ws.id}/0`, holder: 'held-by-the-test' };
    await claim(stack.db, held.key, held.holder, { expiresAt: new Date(Date.now() + 3_600_000) });
    try {
      const ids = await callMany(stack, ws.key, 'job-wait', 4);
      await waitFor(
        async () => (await stored(ids)).filter((c) => c.status === 'waiting_for_capacity').length,
        (n) => n === 4,
        20_000,
      );
      // Each waiter looks again 1, 3, 7 and 15 s after it began waiting, each gap up to a quarter longer: its
      // third look is over by 8.75 s, and its fourth is 15 s or more away, so only being told makes it start
      // within a second. (Waited 8 s, a third look could take a slot between the cap's write and the telling.)
      const thirdLookAtLatest = [0, 1, 2].reduce((sum, n) => sum + capacityWaitMs(n, 1), 0);
      await new Promise((r) => setTimeout(r, thirdLookAtLatest + 500));
      const { config } = stack;
      const raised = await runAdmin(
        { MONGODB_URI: config.MONGODB_URI, MONGODB_DB: config.MONGODB_DB, TEMPORAL_ADDRESS: config.TEMPORAL_ADDRESS },
        'workspace:update',
        '--workspace',
        ws.id,
        '--max-concurrent-calls',
        '3',
      );
      const toldAt = Date.now();
      expect(raised.status).toBe(0);
      expect(JSON.parse(raised.stdout).waiting_calls_told).toBe(4);
      // Slots 1 and 2 are free now: two calls start, together, within a second of being told.
      const calls = await waitFor(
        () => stored(ids),
        (cs) => cs.filter((c) => c.attempts.length > 0).length >= 2,
        10_000,
      );
      const started = calls.filter((c) => c.attempts.length > 0).map((c) => c.attempts[0].started_at.getTime());
      expect(started).toHaveLength(2);
      expect(Math.max(...started) - toldAt).toBeLessThan(1_000);
    } finally {
      await release(stack.db, held.key, held.holder);
    }
  }, 60_000);
});
