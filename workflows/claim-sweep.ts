import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ClaimSweepActivities } from '../activities/claim-sweep';

const acts = proxyActivities<ClaimSweepActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 5 },
});

/** The schedule that starts the sweep each hour, one per task queue (composition/schedules.ts). */
export const claimSweepScheduleId = (taskQueue: string) => `claim-sweep-${taskQueue}`;

/**
 * The hourly claim sweep (docs/reliability.md, "Claims"): every claim has a lifetime, and this removes those
 * spent an hour ago, so their number stays bounded at a steady load. Started by a Temporal schedule, so
 * operators see each run and its count in the UI; a run missed is made up by the next, which removes the same.
 */
export async function claimSweepWorkflow(): Promise<{ removed: number }> {
  // The schedule's own time for this run: a run delayed or retried removes what was spent by then.
  return { removed: await acts.sweepExpiredClaims(workflowInfo().startTime.getTime()) };
}
