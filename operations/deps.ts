import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import type { CallDoc } from '../infra/documents/calls';
import type { InterviewDoc } from '../infra/documents/interviews';
import type { AttemptResult } from '../shared/calls/retry';
import type { CancelReason } from '../shared/calls/schema';
import type { Stores } from '../stores';
import type { ProviderCallRef } from '../shared/erasure/schema';
import type { CallBackAnswer } from '../shared/calls/call-backs';

/**
 * What the use cases ask of the running workflows: the port composition/workflow-signals.ts implements with
 * Temporal's client (signals, starts, a termination), so the use cases hold the rules and not the engine.
 * Each fails with ServiceUnavailableError when Temporal cannot be reached.
 */
export interface WorkflowPort {
  /**
   * Signals the call's workflow to cancel, with why, starting it with the cancel when it has not started yet;
   * false when it has ended (a closed workflow is never started again for a cancel).
   */
  cancelCall(call: CallDoc, reason: CancelReason): Promise<boolean>;
  /** Signals an attempt's result to its call's workflow; false when the workflow is not running. */
  attemptEnded(ended: { callId: string; attempt: number; result: AttemptResult }): Promise<boolean>;
  /** Starts the workflow that cancels the waiting calls of new suppressions (workflows/suppressions.ts). */
  stopCallsOf(suppressionIds: string[]): Promise<void>;
  /**
   * Starts the workflow that deletes the voice provider's copies of an erased person's calls, each until the
   * provider answers (workflows/erasure.ts); started once per set of copies.
   */
  deleteProviderCopies(calls: ProviderCallRef[]): Promise<void>;
  /**
   * Signals a candidate's call-back to the call's workflow and waits up to `withinMs` for its answer: the
   * attempt it became, or its refusal; null when the workflow has ended or did not answer in time.
   */
  callBack(callId: string, providerCallId: string, withinMs: number): Promise<CallBackAnswer | null>;
  /** Ends an interview's workflow, so nothing more is sent or written for it; one already closed is left. */
  endInterview(interview: InterviewDoc): Promise<void>;
}

/** What the use cases are built from (composition/stores.ts wires them once per process). */
export interface OperationDeps {
  stores: Stores;
  workflows: WorkflowPort;
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'VAPI_PHONE_NUMBER_ID'>;
  logger: Logger;
}
