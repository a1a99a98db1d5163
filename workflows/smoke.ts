import { proxyActivities, sleep } from '@temporalio/workflow';
import type { SmokeActivities } from '../activities/smoke';

const { serverTime } = proxyActivities<SmokeActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

/**
 * Proves that a worker, its activities and durable timers work on a cluster: sleeps, then asks an activity
 * for the worker's clock. On the time-skipping server a sleep of days completes at once.
 */
export async function smokeWorkflow(sleepMs: number): Promise<{ sleptMs: number; activityTime: string }> {
  await sleep(sleepMs);
  return { sleptMs: sleepMs, activityTime: await serverTime() };
}
