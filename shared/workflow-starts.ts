import type { SearchAttributePair } from '@temporalio/common';

/**
 * One workflow of a bulk request: its type, deterministic id, arguments and what operators see of it. Built
 * by `workflowStart`, which takes the type from the workflow function and checks the arguments against its
 * parameters; carried as data (through the fan-out workflow's history) with them as they were checked.
 */
export interface WorkflowStart<Args extends unknown[] = unknown[]> {
  workflowType: string;
  workflowId: string;
  args: Args;
  searchAttributes: SearchAttributePair[];
  summary: string;
}

/** A start of `workflow` under the name the worker registers it by (its function's name). */
export function workflowStart<W extends (...args: never[]) => Promise<unknown>>(
  workflow: W,
  start: Omit<WorkflowStart<Parameters<W>>, 'workflowType'>,
): WorkflowStart {
  return { workflowType: workflow.name, ...start };
}

export interface FanOutResult {
  started: number;
  /** Already there: a retried request, or a recovery, started them before. */
  existing: number;
}

/** The workflow of a call, under an id from the call's own: a second start of it is refused (docs/calls.md). */
export function callWorkflowId(callId: string): string {
  return `call-${callId}`;
}

/** The workflow of an invitation, under an id from the interview's own. */
export function interviewWorkflowId(interviewId: string): string {
  return `interview-${interviewId}`;
}
