import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { buildActivityDeps } from '../../composition/activity-deps';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import { CLAIM_SWEEP_GRACE_MS } from '../../infra/claims';
import type { Stores } from '../../stores';
import { claimSweepWorkflow } from '../../workflows/claim-sweep';
import { createTimeSkippingEnv } from '../helpers/time-skipping';
import { testConfig, uniqueName, workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';
import { recordHistory } from '../helpers/histories';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A day and a half of load: a kind that lives a day has reached its level by hour 26, and holds it to the end. */
const HOURS = 36;

/**
 * What an hour of steady work leaves in the claims, taken through the stores as the service takes them, at the
 * time-skipping server's time: dials to new phones (the dial cap's claims), call-backs (an identity try and a
 * confirmed identity each), live conversations (a ticket, a hold and its number's hint), messages claimed before
 * they go, and requests with an Idempotency-Key whose process died holding the key.
 */
const PER_HOUR = { dials: 12, callBacks: 4, conversations: 4, sends: 12, deadRequests: 4 };

/** The kinds, by their keys, and how long each lives at most after it is taken (its lifetime, or its lease). */
const KINDS = [
  { kind: 'dial-cap', pattern: /^dial-cap\//, perHour: PER_HOUR.dials, lifetime: DAY },
  { kind: 'call-back-try', pattern: /^call-back-try\//, perHour: PER_HOUR.callBacks, lifetime: DAY },
  { kind: 'call-back-identity', pattern: /^call-back-identity\//, perHour: PER_HOUR.callBacks, lifetime: 2 * DAY },
  { kind: 'live-ticket', pattern: /^live-ticket\//, perHour: PER_HOUR.conversations, lifetime: 60_000 },
  { kind: 'live-hold', pattern: /^live-hold\/[^/]+\/\d+$/, perHour: PER_HOUR.conversations, lifetime: 10_000 },
  { kind: 'live-hold hint', pattern: /^live-hold\/[^/]+$/, perHour: PER_HOUR.conversations, lifetime: DAY },
  { kind: 'send', pattern: /^send\//, perHour: PER_HOUR.sends, lifetime: 7 * DAY },
  { kind: 'idempotency', pattern: /^idempotency\//, perHour: PER_HOUR.deadRequests, lifetime: 5 * 60_000 },
] as const;

/**
 * Claims expire (docs/reliability.md, "Claims"): a day and a half of steady load on the time-skipping server, with the
 * hourly claim sweep run at each hour as its schedule runs it. After every sweep nothing spent over an hour ago
 * is left, the kinds that live a day or less stand at the same count from hour 26 to the end, none
 * holds more than an hour's load times its lifetime and the sweep's hours, and ten days on nothing is left.
 */
describe('the claim sweep at a steady load (time-skipping server)', () => {
  let env: TestWorkflowEnvironment;
  let db: Database;
  let stores: Stores;
  let acts: ReturnType<typeof createActivities>;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('claims'));
    const deps = buildActivityDeps(testConfig(), { db, client: env.client, logger: createLogger('silent') }, {});
    stores = deps.stores;
    acts = createActivities(deps);
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
    await env?.teardown();
  });

  let n = 0;
  /** An hour's claims, taken at `at` (the server's time), through the stores. */
  async function hourOfLoad(at: number): Promise<void> {
    const now = new Date(at);
    const work: Array<Promise<unknown>> = [];
    for (let i = 0; i < PER_HOUR.dials; i++, n++)
      work.push(stores.dialCaps.take('ws_load', `+1415${String(n).padStart(7, '0')}`, `call_${n}/1`, 3, now));
    for (let i = 0; i < PER_HOUR.callBacks; i++, n++) {
      work.push(stores.callReports.takeIdentityTry(`inbound-${n}`, `tool-${n}`, now));
      work.push(stores.callReports.confirmIdentity(`call_${n}`, 2, `inbound-${n}`, now));
    }
    for (let i = 0; i < PER_HOUR.conversations; i++, n++) {
      const interview = `int_${n}`;
      const ticket = await stores.signedTokens.liveTickets.mint(interview, new Date(at + 60_000));
      work.push(stores.signedTokens.liveTickets.use(interview, ticket, now));
      work.push(
        stores.liveHolds
          .take(interview, `socket-${n}`, now)
          .then((hold) => (hold === null ? null : stores.liveHolds.end(interview, hold, now))),
      );
    }
    for (let i = 0; i < PER_HOUR.sends; i++, n++)
      work.push(stores.sends.take({ channel: 'whatsapp', callId: `call_${n}`, kind: 'pre_call' }, now));
    for (let i = 0; i < PER_HOUR.deadRequests; i++, n++) work.push(stores.idempotency.begin('ws_load', `key-${n}`, 'fingerprint', now));
    await Promise.all(work);
  }

  const counts = async () => {
    const ids = (await db.claims.find({}, { projection: { _id: 1 } }).toArray()).map((c) => c._id);
    return Object.fromEntries(KINDS.map(({ kind, pattern }) => [kind, ids.filter((id) => pattern.test(id)).length]));
  };
  const spentLong = (at: number) => db.claims.countDocuments({ expires_at: { $lt: new Date(at - CLAIM_SWEEP_GRACE_MS) } });

  it('keeps the claims bounded: nothing spent over an hour ago stays, and a day-long kind stands still once a day has passed', async () => {
    const taskQueue = uniqueName('tq');
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: acts,
    });
    const seen: Array<{ hour: number; counts: Record<string, number>; spentLong: number }> = [];
    /**
     * Runs a sweep as the hourly schedule starts one, at the server's time, and waits for it to close by its
     * description: waiting on its result would let the server skip time past the next hour.
     */
    const sweep = async (id: string) => {
      const handle = await env.client.workflow.start(claimSweepWorkflow, { taskQueue, workflowId: id });
      for (let i = 0; i < 1_000 && (await handle.describe()).status.name !== 'COMPLETED'; i++) await new Promise((r) => setTimeout(r, 10));
    };
    const tenDaysOn = await worker.runUntil(async () => {
      for (let hour = 1; hour <= HOURS; hour++) {
        await hourOfLoad(await env.currentTimeMs());
        await env.sleep(HOUR);
        await sweep(`${taskQueue}-sweep-${hour}`);
        const at = await env.currentTimeMs();
        seen.push({ hour, counts: await counts(), spentLong: await spentLong(at) });
      }
      await recordHistory(env.client, `${taskQueue}-sweep-${HOURS}`, 'claim-sweep');
      // Ten days after the load stopped, every claim it took has gone.
      await env.sleep(10 * DAY);
      await sweep(`${taskQueue}-sweep-later`);
      return counts();
    });
    // After every sweep, nothing that was spent over an hour before it is left.
    expect(seen.filter((s) => s.spentLong > 0)).toEqual([]);
    const [day1, later] = [seen[25].counts, seen[HOURS - 1].counts];
    for (const { kind, perHour, lifetime } of KINDS) {
      // Never more than an hour's load for each hour it may live: its lifetime, the sweep's grace and its hour.
      const bound = perHour * Math.ceil((lifetime + CLAIM_SWEEP_GRACE_MS + HOUR) / HOUR);
      expect({ kind, most: Math.max(...seen.map((s) => s.counts[kind])) <= bound }).toEqual({ kind, most: true });
      // A kind that lives a day or less has reached its level within a day and stays there.
      if (lifetime <= DAY) expect({ kind, later: later[kind] }).toEqual({ kind, later: day1[kind] });
    }
    expect(tenDaysOn).toEqual(Object.fromEntries(KINDS.map(({ kind }) => [kind, 0])));
  }, 120_000);
});
