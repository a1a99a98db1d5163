import { proxyActivities } from '@temporalio/workflow';
import type { SuppressionActivities } from '../activities/suppressions';

const acts = proxyActivities<SuppressionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/** The workflow of the suppressions filed together, named for the first (operations/suppressions.ts). */
export function optOutWorkflowId(firstSuppressionId: string): string {
  return `opt-out-${firstSuppressionId}`;
}

/**
 * Stops what new suppressions forbid and the list alone would stop only at its next contact: each call of a
 * suppressed phone that has not ended is cancelled now (`opted_out`), through the one cancel of a call
 * (operations/call-cancel.ts). The list is the rule, read before every dial and message; this makes a waiting
 * call show it at once, rather than when its time comes. It takes only entry ids, so its history holds nothing
 * of the person. (Its type keeps the name it was first registered under: histories and running workflows
 * name it.)
 */
export async function optOutWorkflow(suppressionIds: string[]): Promise<{ cancelled: number }> {
  return acts.stopCalls(suppressionIds);
}
