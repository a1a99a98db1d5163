import { proxyActivities } from '@temporalio/workflow';
import type { FanOutActivities } from '../activities/fan-out';
import type { FanOutResult, WorkflowStart } from '../shared/workflow-starts';

export function fanOutWorkflowId(batchId: string): string {
  return `batch-${batchId}`;
}

// Starting the workflows is retried until it succeeds: a request that was answered `success` must happen.
const acts = proxyActivities<FanOutActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * Starts every per-candidate workflow of one bulk request. The API records the request, starts this one
 * workflow and answers, instead of waiting for a start per candidate: once this workflow exists, Temporal sees
 * to it that each is started, whatever happens to our processes. The starts are made by one activity, all at
 * once, rather than as child workflows, whose starts the server records one after another in this
 * workflow's history. A workflow whose id exists already (running or closed) is left as it is.
 */
export async function fanOutWorkflow(starts: WorkflowStart[]): Promise<FanOutResult> {
  return acts.startWorkflows(starts);
}
