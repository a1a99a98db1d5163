import { ActivityFailure, condition, continueAsNew, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { PartnerPushActivities } from '../activities/partner-pushes';
import { RUN_LIMIT_MS } from '../shared/workflow-runs';

/** Something of the order's interview or call changed: its result may be new (composition/partner-signals.ts). */
export const partnerChangedSignal = defineSignal('partnerChanged');

/** What a run keeps free after its last wait: one report's tries, with room to spare. */
const RUN_RESERVE_MS = 12 * 3_600_000;

const acts = proxyActivities<PartnerPushActivities>({
  // Above PARTNER_TIMEOUT_MS's most (50 s), so the ATS's own answer, not this, ends a slow attempt.
  startToCloseTimeout: '1 minute',
  // Until the ATS takes it, through its outages and ours: 1 s, doubling to every 10 minutes, for as long as a
  // run may wait; the next run goes on trying (docs/ats/, "Runs").
  scheduleToCloseTimeout: RUN_LIMIT_MS - RUN_RESERVE_MS,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** Reports a workflow execution makes before it continues as new, so its history stays short. */
const REPORTS_PER_RUN = 100;

/** The workflow id of an order's reports: one per order, started (or signalled) by each change of it. */
export const partnerPushWorkflowId = (assessmentId: string) => `partner-push-${assessmentId}`;

/**
 * One ATS order's results reported to its ATS (docs/ats/), in order and each once: started with a change,
 * it reports the latest result, then waits for the next change, until a report of an end was made (or nothing
 * more may be told: the candidate erased). A change that comes while a report is under way is reported after it.
 * A run lives at most RUN_LIMIT_MS: one that waited that long for a change, or for its ATS to take a report,
 * continues as new, and the next run looks at the order again (a report already made is not made again).
 */
export async function partnerPushWorkflow(assessmentId: string): Promise<void> {
  let changed = true;
  setHandler(partnerChangedSignal, () => void (changed = true));
  const deadline = workflowInfo().runStartTime.getTime() + RUN_LIMIT_MS - RUN_RESERVE_MS;
  for (let n = 0; n < REPORTS_PER_RUN; n++) {
    const left = deadline - Date.now();
    if (left <= 0 || !(await condition(() => changed, left))) break;
    changed = false;
    try {
      if ((await acts.pushPartnerResult(assessmentId)).ended) return;
    } catch (err) {
      // Its tries outlasted the run: the next run tries again.
      if (!(err instanceof ActivityFailure && err.retryState === 'TIMEOUT')) throw err;
      break;
    }
  }
  await continueAsNew<typeof partnerPushWorkflow>(assessmentId);
}
