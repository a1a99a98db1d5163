import { Context } from '@temporalio/activity';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Webhook } from 'standardwebhooks';
import { createActivities } from '../../activities';
import { buildActivityDeps } from '../../composition/activity-deps';
import { webhookSignaller } from '../../composition/webhook-signals';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import type { DeliveryState } from '../../infra/documents/webhooks';
import { webhookAnnouncer } from '../../stores/webhook-announcer';
import { newWebhookSecret } from '../../infra/webhooks/signing';
import { MAX_DELIVERY_ATTEMPTS, RETRY_DELAYS_MS } from '../../shared/webhooks/delivery-schedule';
import { webhookWorkflowId } from '../../workflows/webhooks';
import { startHttpStub, type HttpStub, type StubReply } from '../helpers/http-stub';
import { recordHistory } from '../helpers/histories';
import { createTimeSkippingEnv } from '../helpers/time-skipping';
import { testConfig, uniqueName, workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';

/**
 * The delivery workflow on the time-skipping server: the retry schedule over three days, giving up, and an
 * endpoint deleted while a delivery waits. Time moves only by env.sleep, step by step, and each step waits
 * (in real time) for the try it makes due.
 */
describe('webhook delivery on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  let db: Database;
  let receiver: HttpStub;
  const answers = new Map<string, (n: number) => StubReply>();
  const logger = createLogger('silent');
  const clock = () => new Date(Context.current().info.currentAttemptScheduledTimestampMs);

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('whd'));
    receiver = await startHttpStub((req) => {
      const n = receiver.requests.filter((r) => r.path === req.path).length;
      return answers.get(req.path)?.(n) ?? { status: 200 };
    });
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
    await receiver?.close();
    await env?.teardown();
  });

  /** A workspace with one endpoint at a receiver path of its own, and an event announced to it. */
  async function announced(path: string) {
    const workspaceId = uniqueName('ws');
    const endpointId = uniqueName('whk');
    const secret = newWebhookSecret();
    await db.webhookEndpoints.insertOne({
      _id: workspaceId,
      endpoints: {
        [endpointId]: {
          id: endpointId,
          url: `${receiver.url}${path}`,
          events: ['call.completed'],
          description: null,
          secrets: [{ value: secret, expires_at: null }],
          status: 'enabled',
          disabled_reason: null,
          created_at: new Date(),
        },
      },
    });
    return { workspaceId, endpointId, secret };
  }

  type Activities = ReturnType<typeof createActivities>;
  async function run(
    path: string,
    script: (ids: Awaited<ReturnType<typeof announced>> & { eventId: string }) => Promise<void>,
    activities: (real: Activities) => Activities = (real) => real,
  ) {
    const config = testConfig();
    const deps = buildActivityDeps(config, { db, client: env.client, logger }, { clock, logger });
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: env.nativeConnection,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowBundle: await workflowBundle(),
      activities: activities(createActivities(deps)),
    });
    const ids = await announced(path);
    await worker.runUntil(async () => {
      const announce = webhookAnnouncer(db, webhookSignaller(env.client, config.TEMPORAL_TASK_QUEUE).deliver);
      const resourceId = uniqueName('call');
      const key = 'call.completed/final';
      const [eventId] = await announce(ids.workspaceId, {
        type: 'call.completed',
        about: async () => ({
          resourceId,
          key,
          announced: { events: [key] },
          view: (sequence) => ({ id: resourceId, status: 'completed', sequence }),
        }),
      });
      await script({ ...ids, eventId: eventId! });
    });
  }

  /** The delivery once it has made `attempts` tries (looking every 50 ms of real time). */
  async function tried(endpointId: string, eventId: string, attempts: number): Promise<DeliveryState> {
    for (let i = 0; i < 300; i++) {
      const d = (await db.webhookEvents.findOne({ _id: eventId }))?.deliveries[endpointId];
      if (d && d.attempts >= attempts) return d;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no try ${attempts} of ${eventId}`);
  }
  async function closed(workflowId: string): Promise<string> {
    const handle = env.client.workflow.getHandle(workflowId);
    for (let i = 0; i < 300 && (await handle.describe()).status.name === 'RUNNING'; i++) await new Promise((r) => setTimeout(r, 50));
    return (await handle.describe()).status.name;
  }

  it('tries again after 5 s, 30 s, 2 min and 10 min, and delivers on the fifth try with the same id', async () => {
    const path = '/flaky';
    answers.set(path, (n) => (n <= 4 ? { status: 500 } : { status: 200 }));
    await run(path, async ({ endpointId, eventId, secret }) => {
      const times: number[] = [(await tried(endpointId, eventId, 1)).last_attempt_at!.getTime()];
      for (const [i, delay] of RETRY_DELAYS_MS.slice(0, 4).entries()) {
        await env.sleep(delay);
        times.push((await tried(endpointId, eventId, i + 2)).last_attempt_at!.getTime());
      }
      expect(times.slice(1).map((t, i) => t - times[i])).toEqual(RETRY_DELAYS_MS.slice(0, 4).map((d) => expect.closeTo(d, -3)));
      const done = await tried(endpointId, eventId, 5);
      expect(done).toMatchObject({ status: 'delivered', attempts: 5, status_code: 200, error: null, next_attempt_at: null });
      const tries = receiver.requests.filter((r) => r.path === path);
      expect(tries).toHaveLength(5);
      expect(new Set(tries.map((t) => t.headers['webhook-id']))).toEqual(new Set([eventId]));
      // Each try is signed at its own time, and still verifies.
      for (const t of tries) new Webhook(secret).verify(t.raw, t.headers as Record<string, string>);
      // Idle for a minute, the workflow ends; the next event starts it again.
      await env.sleep(61_000);
      expect(await closed(webhookWorkflowId(endpointId))).toBe('COMPLETED');
      await recordHistory(env.client, webhookWorkflowId(endpointId), 'webhook-delivered-on-fifth-try');
    });
  });

  it(`gives up after ${MAX_DELIVERY_ATTEMPTS} tries, a little over three days after the first`, async () => {
    const path = '/dead';
    answers.set(path, () => ({ status: 503 }));
    await run(path, async ({ endpointId, eventId }) => {
      const first = (await tried(endpointId, eventId, 1)).last_attempt_at!.getTime();
      for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
        await env.sleep(delay);
        await tried(endpointId, eventId, i + 2);
      }
      const last = await tried(endpointId, eventId, MAX_DELIVERY_ATTEMPTS);
      expect(last).toMatchObject({ status: 'failed', status_code: 503, error: 'the receiver answered 503', next_attempt_at: null });
      expect(last.last_attempt_at!.getTime() - first).toBeGreaterThan(3 * 86_400_000);
      await env.sleep(61_000);
      expect(await closed(webhookWorkflowId(endpointId))).toBe('COMPLETED');
      expect(receiver.requests.filter((r) => r.path === path)).toHaveLength(MAX_DELIVERY_ATTEMPTS);
      await recordHistory(env.client, webhookWorkflowId(endpointId), 'webhook-given-up');
    });
  });

  it('tries a batch lost with its worker again once its heartbeats stop: seconds later, not at its minute', async () => {
    const path = '/lost-batch';
    // The first batch goes silent, as one whose worker was SIGKILLed: no answer and no heartbeat, ever.
    let lost: (() => void) | undefined;
    let batches = 0;
    const losingTheFirst = (real: Activities): Activities => ({
      ...real,
      deliverEvents: (...args: Parameters<Activities['deliverEvents']>) =>
        ++batches === 1 ? new Promise((_, reject) => (lost = () => reject(new Error('the lost worker')))) : real.deliverEvents(...args),
    });
    await run(
      path,
      async ({ endpointId, eventId }) => {
        try {
          for (let i = 0; i < 300 && batches === 0; i++) await new Promise((r) => setTimeout(r, 50));
          expect(batches).toBe(1);
          // The heartbeat timeout (10 s) and the activity's first retry interval (2 s) later, with a second to
          // spare. The server skips no time while the lost batch runs, so this waits the timeout's 10 s for real.
          await env.sleep(13_000);
          expect(await tried(endpointId, eventId, 1)).toMatchObject({ status: 'delivered', attempts: 1 });
          expect(batches).toBe(2);
          expect(receiver.requests.filter((r) => r.path === path)).toHaveLength(1);
        } finally {
          lost?.();
        }
        await env.sleep(61_000);
        expect(await closed(webhookWorkflowId(endpointId))).toBe('COMPLETED');
        await recordHistory(env.client, webhookWorkflowId(endpointId), 'webhook-batch-lost-with-its-worker');
      },
      losingTheFirst,
    );
  });

  it('marks what waits as failed when its endpoint is deleted, and ends', async () => {
    const path = '/deleted';
    answers.set(path, () => ({ status: 502 }));
    await run(path, async ({ workspaceId, endpointId, eventId }) => {
      await tried(endpointId, eventId, 1);
      await db.webhookEndpoints.updateOne({ _id: workspaceId }, { $unset: { [`endpoints.${endpointId}`]: '' } });
      await env.sleep(RETRY_DELAYS_MS[0]);
      expect(await closed(webhookWorkflowId(endpointId))).toBe('COMPLETED');
      expect((await db.webhookEvents.findOne({ _id: eventId }))?.deliveries[endpointId]).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: 'The endpoint was deleted',
      });
      expect(receiver.requests.filter((r) => r.path === path)).toHaveLength(1);
      await recordHistory(env.client, webhookWorkflowId(endpointId), 'webhook-endpoint-deleted');
    });
  });
});
