import type { SearchAttributePair } from '@temporalio/common';

/** One workflow of a bulk request: its type, deterministic id, arguments and what operators see of it. */
export interface WorkflowStart {
  workflowType: 'callWorkflow' | 'interviewWorkflow' | 'simulatedCallWorkflow' | 'smokeWorkflow';
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
