import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import type { ActivityDeps } from '../../activities/deps';
import { buildActivityDeps } from '../../composition/activity-deps';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import type { AttemptReport } from '../../providers/voice/port';
import type { SimulatedCallDoc } from '../../providers/voice/simulator';
import { fanOutWorkflow, fanOutWorkflowId } from '../../workflows/fan-out';
import { simulatedCallWorkflowId } from '../../workflows/simulated-call';
import { smokeWorkflow } from '../../workflows/smoke';
import { workflowStart } from '../../shared/workflow-starts';
import { createTimeSkippingEnv } from '../helpers/time-skipping';
import { testConfig, uniqueName, workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';
import { recordHistory } from '../helpers/histories';

/**
 * The simulator's call workflow and the bulk requests' fan-out on the time-skipping server, with the real
 * activities on the real database. `npm run record-histories` records their histories (and the smoke
 * workflow's) for the replay test.
 */
describe('simulated calls and fan-out on the time-skipping server', () => {
  const logger = createLogger('silent');
  let env: TestWorkflowEnvironment;
  let db: Database;
  let taskQueue: string;
  let deps: ActivityDeps;
  const reports: AttemptReport[] = [];
  // The simulator's clock is the server's, read by the test before it dials: the server's clock runs ahead of
  // the machine's once a test has skipped time, and a call's end is compared with it in the workflow.
  let serverNow = 0;

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('sim'));
    taskQueue = uniqueName('tq');
    const config = testConfig({ SIMULATOR_CALL_SECONDS: '90', TEMPORAL_TASK_QUEUE: taskQueue });
    deps = buildActivityDeps(
      config,
      { db, client: env.client, logger },
      {
        report: async (r) => {
          reports.push(r);
          return 'recorded';
        },
        clock: () => new Date(serverNow),
      },
    );
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
    await env?.teardown();
  });

  const worker = async () =>
    Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities(deps),
    });

  it("delivers a simulated call's report when the call has lasted its length, once", async () => {
    const callId = uniqueName('call');
    serverNow = await env.currentTimeMs();
    const dial = await deps.voice.dial({
      callId,
      attempt: 1,
      to: '+14155550100',
      candidateName: 'Ada Lovelace',
      firstMessage: 'Hello',
      instructions: 'Screen',
      assistantSettings: null,
      extractVariables: [],
      customFields: { simulated_outcomes: 'missed' },
    });
    expect(dial).toMatchObject({ accepted: true });
    const providerCallId = (dial as { providerCallId: string }).providerCallId;
    // The dial started the call's workflow; nothing is reported before the call has lasted 90 s.
    expect(reports).toEqual([]);
    const handle = env.client.workflow.getHandle(simulatedCallWorkflowId(providerCallId));
    await (await worker()).runUntil(handle.result());
    expect((await env.currentTimeMs()) - serverNow).toBeGreaterThanOrEqual(85_000);
    expect(reports).toEqual([expect.objectContaining({ callId, attempt: 1, result: 'missed', providerCallId })]);
    const placed = await db.db.collection<SimulatedCallDoc>('simulator_calls').findOne({ _id: providerCallId });
    expect(placed?.delivered_at).toBeInstanceOf(Date);
    await recordHistory(env.client, handle.workflowId, 'simulated-call');
  });

  it('starts every workflow of a batch once, and a second fan-out of the same starts finds them all', async () => {
    const starts = [1, 2, 3].map((n) =>
      workflowStart(smokeWorkflow, { workflowId: uniqueName(`smoke${n}`), args: [60_000], searchAttributes: [], summary: `Smoke ${n}` }),
    );
    const w = await worker();
    const outcome = await w.runUntil(async () => {
      const first = await env.client.workflow.start(fanOutWorkflow, {
        taskQueue,
        workflowId: fanOutWorkflowId(uniqueName('req')),
        args: [starts],
      });
      const firstResult = await first.result();
      const again = await env.client.workflow.execute(fanOutWorkflow, {
        taskQueue,
        workflowId: fanOutWorkflowId(uniqueName('req')),
        args: [starts],
      });
      // Every workflow the batch started runs to its end here, one result at a time (the test server counts
      // time-skipping locks per waiting caller): a timer left pending would skip the server's clock under the
      // next test's feet.
      const slept = [];
      for (const s of starts) slept.push(await env.client.workflow.getHandle<typeof smokeWorkflow>(s.workflowId).result());
      await recordHistory(env.client, first.workflowId, 'fan-out');
      await recordHistory(env.client, starts[0].workflowId, 'smoke');
      return { firstResult, again, slept };
    });
    expect(outcome.firstResult).toEqual({ started: 3, existing: 0 });
    expect(outcome.again).toEqual({ started: 0, existing: 3 });
    expect(outcome.slept.map((r) => r.sleptMs)).toEqual([60_000, 60_000, 60_000]);
  });
});
