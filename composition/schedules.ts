import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import type { Logger } from '../infra/logger';
import { retentionScheduleId, retentionSweepWorkflow } from '../workflows/erasure';
import { claimSweepScheduleId, claimSweepWorkflow } from '../workflows/claim-sweep';

/**
 * The worker's schedules, created by the first worker of a task queue to start and left as they are by the
 * others: operators see them, pause them and trigger them in the Temporal UI. The daily retention sweep
 * (workflows/erasure.ts) and the hourly claim sweep (workflows/claim-sweep.ts).
 */
export async function ensureSchedules(client: Client, taskQueue: string, logger: Logger): Promise<void> {
  const retention = retentionScheduleId(taskQueue);
  await ensure(client, logger, 'retention sweep scheduled daily', {
    scheduleId: retention,
    spec: { intervals: [{ every: '1 day' }] },
    action: { type: 'startWorkflow', workflowType: retentionSweepWorkflow, taskQueue, workflowId: retention },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
    state: { note: "Erases candidates past their workspace's retention_days (docs/erasure.md)." },
  });
  const claims = claimSweepScheduleId(taskQueue);
  await ensure(client, logger, 'claim sweep scheduled hourly', {
    scheduleId: claims,
    spec: { intervals: [{ every: '1 hour' }] },
    action: { type: 'startWorkflow', workflowType: claimSweepWorkflow, taskQueue, workflowId: claims },
    // A run missed is made up by the next, which removes the same and more.
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
    state: { note: 'Removes the claims spent an hour ago (docs/reliability.md, "Claims").' },
  });
}

async function ensure(client: Client, logger: Logger, said: string, options: ScheduleOptions): Promise<void> {
  try {
    await client.schedule.create(options);
    logger.info({ scheduleId: options.scheduleId }, said);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
