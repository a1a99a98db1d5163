import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Logger } from '../infra/logger';
import { retentionScheduleId, retentionSweepWorkflow } from '../workflows/erasure';

/**
 * The daily retention sweep's schedule (workflows/erasure.ts), created by the first worker of a task queue to
 * start and left as it is by the others: operators see it, pause it and trigger it in the Temporal UI.
 */
export async function ensureRetentionSchedule(client: Client, taskQueue: string, logger: Logger): Promise<void> {
  const scheduleId = retentionScheduleId(taskQueue);
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: '1 day' }] },
      action: { type: 'startWorkflow', workflowType: retentionSweepWorkflow, taskQueue, workflowId: scheduleId },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
      state: { note: "Erases candidates past their workspace's retention_days (docs/erasure.md)." },
    });
    logger.info({ scheduleId }, 'retention sweep scheduled daily');
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
