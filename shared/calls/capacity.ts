/**
 * How many attempts of a workspace may be in progress at once (`max_concurrent_calls`), and how a call
 * waits its turn. Hosted voice providers cap concurrency per account (Vapi allows 10 by default) and answer
 * 429 beyond it: a call over the cap, or refused as busy, waits as `waiting_for_capacity` and never fails.
 */
export const DEFAULT_MAX_CONCURRENT_CALLS = 10;
export const MAX_CONCURRENT_CALLS_LIMIT = 1_000;

const LONGEST_LOOK_GAP_MS = 15_000;
const LOOK_SPREAD = 0.25;

/**
 * When a waiting call looks again for a free slot, after its n-th look (from 0) found none: 1 s, then twice as
 * long each time up to 15 s, spread by a fraction of the call's own (`spread`, 0 to 1) so waiters do not look
 * in step. Each look reads the workspace's cap afresh. Every waiter looks on its own, so a long queue costs
 * looks: with a look every second each, the chaos suite's load (about 450 calls behind a cap of 10) kept two
 * cores busy, and a scenario after it took 158 s instead of 26. A slot given back also wakes the workspace's
 * latest waiter at once (stores/call-slots.ts); these timers are what a waiter not woken falls back on.
 */
export function capacityWaitMs(n: number, spread: number): number {
  const base = Math.min(1_000 * 2 ** n, LONGEST_LOOK_GAP_MS);
  return Math.round(base * (1 + LOOK_SPREAD * spread));
}

/** The longest a waiting call goes between two looks: when a cap it was not told of is seen at the latest. */
export const LONGEST_CAPACITY_WAIT_MS = Math.round(LONGEST_LOOK_GAP_MS * (1 + LOOK_SPREAD));

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
