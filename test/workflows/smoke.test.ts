import { Worker } from '@temporalio/worker';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { createActivities } from '../../activities';
import { smokeWorkflow } from '../../workflows';
import { createTimeSkippingEnv } from '../helpers/time-skipping';
import { startStack, uniqueName, workflowBundle, type Stack, WORKFLOWS_IN_THREAD } from '../helpers/stack';

const SEVEN_DAYS = 7 * 24 * 60 * 60 * 1000;

describe('smoke workflow on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(() => env?.teardown());

  it('sleeps seven days of workflow time in well under a second of wall time', async () => {
    const taskQueue = uniqueName('tq');
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: { serverTime: async () => new Date().toISOString() } satisfies Partial<ReturnType<typeof createActivities>>,
    });
    const result = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(smokeWorkflow, { args: [SEVEN_DAYS], taskQueue, workflowId: uniqueName('smoke') });
      const startedAt = Date.now();
      const before = await env.currentTimeMs();
      const res = await handle.result();
      return { res, wallMs: Date.now() - startedAt, skippedMs: (await env.currentTimeMs()) - before };
    });
    expect(result.res.sleptMs).toBe(SEVEN_DAYS);
    expect(result.skippedMs).toBeGreaterThanOrEqual(SEVEN_DAYS);
    // Seven days passed in workflow time; the wall clock only shows they were skipped, not waited (speed is
    // measured by npm run bench, not here).
    expect(result.wallMs).toBeLessThan(60_000);
  });
});

describe('smoke workflow on the Temporal dev server', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
  });
  afterAll(() => stack?.stop());

  it('runs a workflow with a timer and an activity through the real worker', async () => {
    const result = await stack.temporal.workflow.execute(smokeWorkflow, {
      args: [200],
      taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
      workflowId: uniqueName('smoke'),
    });
    expect(result.sleptMs).toBe(200);
    expect(Date.parse(result.activityTime)).toBeGreaterThan(Date.now() - 60_000);
  });
});
