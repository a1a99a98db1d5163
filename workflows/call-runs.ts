import { allHandlersFinished, condition, makeContinueAsNewFunc, workflowInfo } from '@temporalio/workflow';
import { RUN_LIMIT_MS } from '../shared/workflow-runs';
import type { CallProgress, CallResume, CallWorkflowInput, ResumeStage } from './call-contract';

/**
 * What a run keeps free after its last long wait: the attempt that may follow it, with its report's wait and
 * lookups (an hour and a half at most), and a call-back's, with room to spare.
 */
const RUN_RESERVE_MS = 12 * 3_600_000;

/**
 * When this run of a call hands over: a wait that would take it past this ends here, and the call continues
 * as new (docs/calls.md, "Runs"), so no run lives longer than RUN_LIMIT_MS.
 */
export function runDeadline(): number {
  return workflowInfo().runStartTime.getTime() + RUN_LIMIT_MS - RUN_RESERVE_MS;
}

/** What a call's state gives its next run (call-state.ts). */
export interface ResumableCall {
  readonly input: CallWorkflowInput;
  resumeFrom(stage: ResumeStage, until: number): CallResume;
}

/**
 * Continues the call as new, in the wait `stage` until `until`, once every message handler under way has
 * answered; the new run goes on from there (calls.ts) with the state the waits read. Never returns.
 */
export async function continueCall(call: ResumableCall, stage: ResumeStage, until: number): Promise<never> {
  await condition(allHandlersFinished);
  const input: CallWorkflowInput = { ...call.input, resume: call.resumeFrom(stage, until) };
  // The next run is found by what this one is (its candidate, job, workspace and status), as operators look.
  const next = makeContinueAsNewFunc<(input: CallWorkflowInput) => Promise<CallProgress>>({
    typedSearchAttributes: workflowInfo().typedSearchAttributes,
  });
  return next(input);
}
