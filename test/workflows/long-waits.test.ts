import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { erasureWorkflow, providerDeletionWorkflow } from '../../workflows/erasure';
import { partnerPushWorkflow } from '../../workflows/partner-pushes';
import { webhookDeliveryWorkflow, webhookEventSignal } from '../../workflows/webhooks';
import { RUN_LIMIT_MS } from '../../shared/workflow-runs';
import { createTimeSkippingEnv } from '../helpers/time-skipping';
import { uniqueName, workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';
import { runsOf, type WorkflowRun } from '../helpers/workflow-runs';
import { recordHistory } from '../helpers/histories';

const DAY = 86_400_000;

/**
 * Every long wait outside the call and the interview runs in runs of at most a week too (docs/tests.md,
 * "Releases"): an ATS order waiting for its next change or for its ATS to take a report, an erasure and a
 * provider's deletions waiting out an outage, and a webhook endpoint's deliveries at a steady trickle. The
 * activities here are the workflows' counterparts that stay down or busy for days: what is tested is how the
 * workflows wait (the activities themselves are tested on the real stack elsewhere).
 */
describe('long waits in runs of at most a week (time-skipping server)', () => {
  let env: TestWorkflowEnvironment;
  let until = 0;
  /** Down until `until` (the server's time), then done. */
  const downUntil =
    <T>(done: T) =>
    async (): Promise<T> => {
      if (Context.current().info.currentAttemptScheduledTimestampMs < until)
        throw ApplicationFailure.retryable('the provider is down', 'Outage');
      return done;
    };
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(() => env?.teardown());

  const weekLong = (runs: WorkflowRun[]) => {
    expect(runs.length).toBeGreaterThanOrEqual(2);
    for (const run of runs) expect(run.ended - run.started).toBeLessThanOrEqual(RUN_LIMIT_MS);
    expect(runs.slice(0, -1).every((r) => r.continued)).toBe(true);
  };

  async function worker(activities: Record<string, (...args: any[]) => Promise<unknown>>) {
    const taskQueue = uniqueName('tq');
    return {
      taskQueue,
      worker: await Worker.create({
        ...WORKFLOWS_IN_THREAD,
        connection: env.nativeConnection,
        taskQueue,
        workflowBundle: await workflowBundle(),
        activities,
      }),
    };
  }

  it("waits for an ATS order's next change, and for its ATS to take a report, a week at a time", async () => {
    until = (await env.currentTimeMs()) + 10 * DAY;
    let pushes = 0;
    // Looked at again every six hours (the push's own retries, every 10 minutes, would be a thousand tries to skip).
    const { worker: w, taskQueue } = await worker({
      pushPartnerResult: async () => {
        pushes++;
        if (Context.current().info.currentAttemptScheduledTimestampMs < until)
          throw ApplicationFailure.create({ message: 'the ATS is down', nextRetryDelay: '6 hours' });
        return { ended: false };
      },
    });
    const id = uniqueName('partner-push');
    const handle = await env.client.workflow.start(partnerPushWorkflow, { taskQueue, workflowId: id, args: ['pa_1'] });
    await w.runUntil(async () => {
      await env.sleep(17 * DAY);
      await env.client.workflow.getHandle(id).terminate('the test is over');
    });
    const runs = await runsOf(env.client, id, handle.firstExecutionRunId);
    weekLong(runs);
    // The ATS took the report in the second run; the third waited for a change, and looked again once.
    expect(runs.length).toBe(3);
    expect(pushes).toBeGreaterThan(3);
    await recordHistory(env.client, id, 'partner-push-run-continued', runs[0].runId);
  });

  it("deletes a provider's copies through an outage of ten days, going on with those left", async () => {
    until = (await env.currentTimeMs()) + 10 * DAY;
    const { worker: w, taskQueue } = await worker({ deleteProviderCall: downUntil('deleted' as const) });
    const id = uniqueName('provider-deletion');
    const calls = [
      { provider: 'vapi', providerCallId: 'v1' },
      { provider: 'vapi', providerCallId: 'v2' },
    ];
    const handle = await env.client.workflow.start(providerDeletionWorkflow, { taskQueue, workflowId: id, args: [calls] });
    const done = await w.runUntil(async () => {
      await env.sleep(12 * DAY);
      return env.client.workflow.getHandle<typeof providerDeletionWorkflow>(id).result();
    });
    expect(done).toEqual({ deleted: 2, gone: 0, unsupported: 0 });
    const runs = await runsOf(env.client, id, handle.firstExecutionRunId);
    weekLong(runs);
    expect(runs[1].input).toEqual(calls);
    await recordHistory(env.client, id, 'provider-deletion-run-continued', runs[0].runId);
  });

  it('erases through an outage of ten days, each run going on from what is left', async () => {
    until = (await env.currentTimeMs()) + 10 * DAY;
    const counts = { calls: 1, interviews: 0, candidates: 1 };
    // Looked at again each day (the step's own retries, every 30 s, would be thousands of tries to skip through).
    const { worker: w, taskQueue } = await worker({
      eraseRequested: async () => {
        if (Context.current().info.currentAttemptScheduledTimestampMs < until)
          throw ApplicationFailure.create({ message: 'an attempt under way holds it', nextRetryDelay: '1 day' });
        return counts;
      },
    });
    const id = uniqueName('erasure');
    const handle = await env.client.workflow.start(erasureWorkflow, { taskQueue, workflowId: id, args: ['era_1'] });
    const done = await w.runUntil(async () => {
      await env.sleep(12 * DAY);
      return env.client.workflow.getHandle<typeof erasureWorkflow>(id).result();
    });
    expect(done).toEqual(counts);
    weekLong(await runsOf(env.client, id, handle.firstExecutionRunId));
    await recordHistory(env.client, id, 'erasure-run-continued', handle.firstExecutionRunId);
  });

  it("sends an endpoint's deliveries at a steady trickle in runs of at most a week, carrying what is still to send", async () => {
    // Every try is answered "try again in ten hours": the workflow never idles out.
    const { worker: w, taskQueue } = await worker({
      deliverEvents: async (_ref: unknown, ids: string[]) => ({
        results: ids.map((eventId) => ({ eventId, nextAt: Context.current().info.currentAttemptScheduledTimestampMs + 10 * 3_600_000 })),
        gone: null,
      }),
      abandonDeliveries: async () => undefined,
    });
    const id = uniqueName('webhooks');
    const handle = await env.client.workflow.start(webhookDeliveryWorkflow, {
      taskQueue,
      workflowId: id,
      args: [{ workspaceId: 'ws_1', endpointId: 'whk_1' }],
    });
    const pending = await w.runUntil(async () => {
      await handle.signal(webhookEventSignal, ['evt_1', 'evt_2']);
      await env.sleep(9 * DAY);
      const current = env.client.workflow.getHandle(id);
      const left = await current.query<Record<string, number>>('pendingDeliveries');
      await current.terminate('the test is over');
      return left;
    });
    expect(Object.keys(pending).sort()).toEqual(['evt_1', 'evt_2']);
    weekLong(await runsOf(env.client, id, handle.firstExecutionRunId));
  });
});
