import type { AttemptResult } from '../shared/calls/retry';
import type { CallStatus, RetryPolicy, WorkingHours } from '../shared/calls/schema';

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
