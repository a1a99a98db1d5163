import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import type { CallDoc } from '../infra/documents/calls';
import type { InterviewDoc } from '../infra/documents/interviews';
import type { AttemptResult } from '../shared/calls/retry';
import type { CallStatus, CancelReason } from '../shared/calls/schema';
import type { Stores } from '../stores';
import type { ErasureCounts, ProviderCallRef } from '../shared/erasure/schema';
import type { CallBackAnswer } from '../shared/calls/call-backs';
import type { CandidateChoice, CandidateChoiceAnswer } from '../shared/calls/candidate-link';
import type { RealtimeVoice } from '../providers/realtime/port';

/** One bulk request's workflows as operators see them: its summary, and the project it is for. */
export interface BulkStart {
  summary: string;
  project: { workspace_id: string; _id: string; ats_job_id: string };
}

/**
 * What the API, the pages and the use cases ask of the workflows: the one way to Temporal outside the worker,
 * which composition/workflow-port.ts implements with Temporal's client (starts, signals, Updates, a
 * termination), so the callers hold the rules and not the engine. Each fails with ServiceUnavailableError
 * when Temporal cannot be reached.
 */
export interface WorkflowPort {
  /**
   * Starts the workflows of a bulk request's calls or invitations (several through one fan-out workflow);
   * once this returns they will exist. When it throws, a start may still reach Temporal later: the caller takes
   * back the records (operations/workflow-starts.ts), so such a workflow fails at its first step.
   */
  startCalls(calls: CallDoc[], request: BulkStart | null): Promise<void>;
  startInvitations(interviews: InterviewDoc[], request: BulkStart): Promise<void>;
  /**
   * Tells an interview's workflow the interview changed (started, finished, a resend). `reopen`: a closed
   * workflow starts again under its id (the API's resend of an expired link); the pages never reopen one.
   */
  interviewChanged(interview: InterviewDoc, opts: { reopen: boolean }): Promise<void>;
  /** Sends a webhook delivery again now, through its endpoint's delivery workflow. */
  retryDelivery(workspaceId: string, endpointId: string, eventId: string): Promise<void>;
  /**
   * Registers the search attributes the calls' and interviews' workflows are started with, where missing,
   * and says whether they all exist; /readyz is 503 until they do.
   */
  searchAttributesReady(): Promise<boolean>;
  /** Resolves when the namespace answers within 2 s; /readyz's look at Temporal. */
  namespaceReachable(): Promise<void>;
  /**
   * Signals the call's workflow to cancel, with why, starting it with the cancel when it has not started yet;
   * false when it has ended (a closed workflow is never started again for a cancel).
   */
  cancelCall(call: CallDoc, reason: CancelReason): Promise<boolean>;
  /**
   * Asks the call's workflow (an Update) for the call's status once a cancel sent to it has taken (`taken`:
   * cancelled, or cancelling while an attempt finishes) or once the call has ended (`ended`); null when it
   * did not answer within `withinMs` or has closed.
   */
  cancelOutcome(callId: string, until: 'taken' | 'ended', withinMs: number): Promise<CallStatus | null>;
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
   * Asks the call's workflow (an Update) to take a candidate's call-back, decided within `withinMs` of now: the
   * attempt it became, or its refusal; null when the workflow has ended or did not answer in time. Null is
   * final: a workflow that takes the call-back after the answer was given up on is told it was withdrawn, and
   * begins no attempt, or ends it at once.
   */
  callBack(callId: string, providerCallId: string, withinMs: number): Promise<CallBackAnswer | null>;
  /**
   * Asks the call's workflow (an Update) to take the candidate's choice on their link. `answer`: its answer, or
   * its refusal (`ended` for a workflow that has closed), within `withinMs`; null when it did not come by then,
   * though the workflow may still take the choice later. `settled`: the same answer however late it comes, for
   * what must know how it ended (a form's answers are kept until then); null when the workflow could not be
   * asked, which says nothing of whether it will take it.
   */
  candidateChoice(
    callId: string,
    choice: CandidateChoice,
    withinMs: number,
  ): { answer: Promise<CandidateChoiceAnswer | null>; settled: Promise<CandidateChoiceAnswer | null> };
  /**
   * Starts the erasure `erasureId` as a workflow (one per erasure) and waits up to `withinMs` for its counts;
   * null when it has not ended by then (it goes on).
   */
  erase(erasureId: string, withinMs: number): Promise<ErasureCounts | null>;
  /** Ends an interview's workflow, so nothing more is sent or written for it; one already closed is left. `why`: the UI's reason. */
  endInterview(interview: InterviewDoc, why?: string): Promise<void>;
  /** Tells an ATS order's report workflow that it may have a new result (workflows/partner-pushes.ts). */
  partnerChanged(assessmentId: string): Promise<void>;
}

/** What the use cases are built from (composition/stores.ts wires them once per process). */
export interface OperationDeps {
  stores: Stores;
  workflows: WorkflowPort;
  config: Pick<
    Config,
    'PUBLIC_BASE_URL' | 'VAPI_PHONE_NUMBER_ID' | 'FAULT_HOLD_AT' | 'ERASURE_ANSWER_WITHIN_MS' | 'LIVE_CONVERSATIONS_PER_PROCESS'
  >;
  logger: Logger;
  /** Live interviews' realtime speech provider (composition/providers.ts). */
  realtime: RealtimeVoice;
  /** What an ATS door asks of its ATS (providers/ats/): Ashby's record of a candidate's phone. */
  atsLookups?: { ashbyCandidatePhone(apiKey: string, candidateId: string): Promise<string | null> };
}
