import { startStack, type Stack, uniqueName } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { claimSweepScheduleId } from '../../workflows/claim-sweep';

/**
 * The worker removes what has run out (kept idempotent answers, sessions, limit windows) on FerretDB too,
 * where no TTL index does it: the test inserts expired and live records of its own and watches the sweep.
 */
describe('housekeeping', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { HOUSEKEEPING_INTERVAL_SECONDS: '1' } });
  });
  afterAll(() => stack?.stop());

  it('removes expired idempotent answers, sessions and limit windows, and keeps the live ones', async () => {
    const collections = [stack.db.idempotencyKeys, stack.db.sessions, stack.db.limitEntries] as const;
    const ids = { expired: uniqueName('expired'), live: uniqueName('live') };
    for (const c of collections) {
      await c.insertOne({ _id: ids.expired, expires_at: new Date(Date.now() - 1_000) } as never);
      await c.insertOne({ _id: ids.live, expires_at: new Date(Date.now() + 3_600_000) } as never);
    }
    const left = () =>
      Promise.all(
        collections.map(async (c) => (await c.find({ _id: { $in: [ids.expired, ids.live] } } as never).toArray()).map((d) => d._id)),
      );
    expect(await waitFor(left, (l) => l.every((ids) => ids.length === 1), 15_000)).toEqual([[ids.live], [ids.live], [ids.live]]);
  });

  it('schedules the claim sweep hourly, and a run of it removes a claim spent over an hour ago and keeps a live one', async () => {
    const handle = stack.temporal.schedule.getHandle(claimSweepScheduleId(stack.config.TEMPORAL_TASK_QUEUE));
    const schedule = await handle.describe();
    expect(schedule.action).toMatchObject({ type: 'startWorkflow', workflowType: 'claimSweepWorkflow' });
    expect(schedule.spec.intervals).toEqual([expect.objectContaining({ every: 3_600_000 })]);
    const ids = { spent: uniqueName('dial-cap/spent'), live: uniqueName('dial-cap/live') };
    await stack.db.claims.insertMany([
      { _id: ids.spent, holder: 'x', expires_at: new Date(Date.now() - 2 * 3_600_000), created_at: new Date() },
      { _id: ids.live, holder: 'y', expires_at: new Date(Date.now() + 3_600_000), created_at: new Date() },
    ]);
    await handle.trigger();
    const left = () => stack.db.claims.find({ _id: { $in: [ids.spent, ids.live] } }).toArray();
    expect((await waitFor(left, (l) => l.length === 1, 15_000)).map((c) => c._id)).toEqual([ids.live]);
  });
});
