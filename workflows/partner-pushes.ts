import { condition, continueAsNew, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { PartnerPushActivities } from '../activities/partner-pushes';

/** Something of the order's interview or call changed: its result may be new (composition/partner-signals.ts). */
export const partnerChangedSignal = defineSignal('partnerChanged');

const acts = proxyActivities<PartnerPushActivities>({
  // Above PARTNER_TIMEOUT_MS's most (50 s), so the ATS's own answer, not this, ends a slow attempt.
  startToCloseTimeout: '1 minute',
  // Until the ATS takes it, through its outages and ours: 1 s, doubling to every 10 minutes.
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
 */
export async function partnerPushWorkflow(assessmentId: string): Promise<void> {
  let changed = true;
  setHandler(partnerChangedSignal, () => void (changed = true));
  for (let n = 0; n < REPORTS_PER_RUN; n++) {
    await condition(() => changed);
    changed = false;
    if ((await acts.pushPartnerResult(assessmentId)).ended) return;
  }
  await continueAsNew<typeof partnerPushWorkflow>(assessmentId);
}
