import { ParentClosePolicy, startChild } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError, type SearchAttributePair } from '@temporalio/common';

/** One workflow of a bulk request: its type, deterministic id, arguments and what operators see of it. */
export interface WorkflowStart {
  workflowType: 'callWorkflow' | 'interviewWorkflow';
  workflowId: string;
  args: unknown[];
  searchAttributes: SearchAttributePair[];
  summary: string;
}

export interface FanOutResult {
  started: number;
  /** Already there: a retried request, or a recovery, started them before. */
  existing: number;
}

export function fanOutWorkflowId(batchId: string): string {
  return `batch-${batchId}`;
}

/**
 * Starts every per-candidate workflow of one bulk request. The API records the request, starts this one
 * workflow and answers, instead of waiting for a start per candidate: once this workflow exists, Temporal sees
 * to it that each child is started, whatever happens to our processes. The children are abandoned on purpose:
 * they live on, under their own ids, after this workflow completes. A child whose id exists already (running
 * or closed) is left as it is, as a retried start from the API would leave it.
 */
export async function fanOutWorkflow(starts: WorkflowStart[]): Promise<FanOutResult> {
  let existing = 0;
  await Promise.all(
    starts.map(async (s) => {
      try {
        await startChild(s.workflowType, {
          workflowId: s.workflowId,
          args: s.args,
          typedSearchAttributes: s.searchAttributes,
          staticSummary: s.summary,
          parentClosePolicy: ParentClosePolicy.ABANDON,
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        });
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        existing++;
      }
    }),
  );
  return { started: starts.length - existing, existing };
}
