import { intoWorkingHours } from './working-hours';
import type { FAILURE_REASONS, RetryInterval, RetryPolicy, WorkingHours } from './schema';

/** Any reason an attempt failed for (FAILURE_REASONS in the contract); those not retryable end the call. */
export type FailureReason = (typeof FAILURE_REASONS)[number];
/**
 * How an attempt ended, as a provider reports it and the call's workflow decides on it: completed, or why it
 * failed. The stored attempt (and GET /calls/:id) keeps it as two fields: `outcome` (completed or failed) and
 * `failure_reason`.
 */
export type AttemptResult = 'completed' | FailureReason;

/** With conditions but no intervals: two retries, one hour after each failure. */
export const DEFAULT_INTERVALS: RetryInterval[] = [
  { type: 'delay', duration: 1, unit: 'hours' },
  { type: 'delay', duration: 1, unit: 'hours' },
];

const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

export function intervalsOf(policy: RetryPolicy): RetryInterval[] {
  return policy.intervals && policy.intervals.length > 0 ? policy.intervals : DEFAULT_INTERVALS;
}

/**
 * When to dial again after attempt number `failedAttempt` (1-based) failed with `reason` at `failedAt`, or null
 * when the call is over. `intervals[n]` is the (n+1)th retry; `delay` counts from the failure and is moved into
 * working hours when they apply; `specific_datetime` is used as given (a past instant means now). An interval
 * missing the field its type needs (the API refuses one) ends the call rather than guessing.
 */
export function nextRetryTime(args: {
  policy: RetryPolicy | undefined | null;
  failedAttempt: number;
  reason: FailureReason;
  failedAt: number;
  workingHours?: WorkingHours | null;
  /** The zones the working hours are in (working-hours.ts); UTC when absent. */
  hoursZones?: readonly string[] | null;
}): number | null {
  const { policy, failedAttempt, reason, failedAt, workingHours, hoursZones } = args;
  if (!policy || !(policy.conditions as string[]).includes(reason)) return null;
  const interval = intervalsOf(policy)[failedAttempt - 1];
  if (!interval) return null;
  if (interval.type === 'specific_datetime')
    return interval.datetime === undefined ? null : Math.max(failedAt, Date.parse(interval.datetime));
  if (interval.duration === undefined || interval.unit === undefined) return null;
  const due = failedAt + interval.duration * UNIT_MS[interval.unit];
  return intoWorkingHours(due, workingHours, hoursZones);
}
