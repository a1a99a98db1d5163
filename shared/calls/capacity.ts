/**
 * How many attempts of a workspace may be in progress at once (`max_concurrent_calls`), and how a call
 * waits its turn. Hosted voice providers cap concurrency per account (Vapi allows 10 by default) and answer
 * 429 beyond it: a call over the cap, or refused as busy, waits as `waiting_for_capacity` and never fails.
 */
export const DEFAULT_MAX_CONCURRENT_CALLS = 10;
export const MAX_CONCURRENT_CALLS_LIMIT = 1_000;

/**
 * How often a waiting call looks for a free slot. Each look reads the workspace's cap afresh, so a changed
 * max_concurrent_calls takes effect within this long.
 */
export const CAPACITY_LOOK_MS = 1_000;

/** How long a provider's own "busy" (429) is waited out when it does not say: Retry-After, else this. */
export const PROVIDER_BUSY_WAIT_MS = 5_000;

/** How often an attempt without a report is looked up at the provider before it is given up (workflows/calls.ts). */
export const LOST_REPORT_CHECKS = 2;

/**
 * How long an attempt holds its slot at most: its report deadline, the dial's own time and every lost-report
 * check included. A slot whose holder never gave it back (its workflow was terminated) is free after this.
 */
export function slotLeaseMs(reportWithinMs: number, lostReportChecks: number): number {
  return (lostReportChecks + 1) * reportWithinMs + 60_000;
}
