import type { AttemptResult, FailureReason } from '../shared/calls/retry';
import type { CallStatus, RetryPolicy, WorkingHours } from '../shared/calls/schema';
import type { CallBackAnswer } from '../shared/calls/call-backs';

/**
 * What the call workflow (calls.ts) is started with and what it answers: its input, derived from the stored
 * call alone (call-start.ts), an attempt's end as its report carries it in, and its progress. Its state and
 * waits are call-state.ts.
 */

export interface CallWorkflowInput {
  callId: string;
  /** Epoch ms of schedule_at, used as given; null to dial now, within working hours. */
  scheduleAt: number | null;
  workingHours: WorkingHours | null;
  /** The zones the working hours are in: absent for UTC (working_hours.timezone). */
  hoursZones?: string[];
  retryPolicy: RetryPolicy | null;
  sendPreCall: boolean;
  sendFallback: boolean;
  /**
   * How long to wait for an attempt's report when the dial does not say (`reportWithinMs`: the provider's
   * longest call plus a grace). Then the provider is asked (when it can be); a call it says is still going
   * gets another wait, up to LOST_REPORT_CHECKS times, before the attempt counts as no_outcome.
   */
  outcomeTimeoutMs: number;
  /** When the call offers its written form on its own (`form_fallback`); absent: never. */
  formFallback?: 'after_first_failure' | 'when_exhausted';
  /** The candidate gets one email with their link when the call is made (the workspace's `email_call_links`). */
  emailLink?: true;
  /** Where the call stands when its run continued as new; absent on the first run (workflows/call-runs.ts). */
  resume?: CallResume;
}

/**
 * The wait a run continued as new in (docs/calls.md, "Runs"): `first_dial`, before the first dial and its
 * pre-call message; `next_dial`, between attempts (a retry's time, the calling window's, a calling slot's);
 * `form`, its attempts spent, waiting for the written answers; `fallback`, failed, its fallback message held
 * by the calling window.
 */
export type ResumeStage = 'first_dial' | 'next_dial' | 'form' | 'fallback';

/** What a call's next run goes on from: the wait it was in and until when, and the state the waits read. */
export interface CallResume {
  stage: ResumeStage;
  until: number;
  progress: CallProgress;
  used: number;
  dials: number;
  lastReason: FailureReason | null;
  link: { moves: number; chosenAt: number | null; acted: boolean; formOffered: boolean };
  /** Each inbound call's answer: the same call asked again gets the same one. */
  callBackAnswers: Array<[string, CallBackAnswer]>;
}

/** How one attempt ended, as its provider reported it; carried in by the provider-callback path. */
export interface AttemptEnded {
  attempt: number;
  result: AttemptResult;
}

export interface CallProgress {
  status: CallStatus;
  attempt: number;
  nextAttemptAt: number | null;
}
