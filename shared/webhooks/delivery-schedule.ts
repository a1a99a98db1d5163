/**
 * When a webhook delivery is tried again after a failed try: quickly at first (a receiver that restarts),
 * then further apart, for a little over three days in all. After the last try the delivery is `failed`; it
 * can still be sent again by hand (POST …/deliveries/:id/retry).
 */
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
export const RETRY_DELAYS_MS = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  12 * HOUR,
  12 * HOUR,
  12 * HOUR,
  12 * HOUR,
  12 * HOUR,
] as const;

/** Tries in all: the first and one after each delay. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** A receiver gets this long to answer a try; a later answer counts as a timeout. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** When try `attempts + 1` is due after try `attempts` failed at `failedAt`; null when none is left. */
export function nextDeliveryTime(attempts: number, failedAt: number): number | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : failedAt + delay;
}

/** What a receiver's answer means: a 2xx is delivered, 410 Gone disables the endpoint, anything else is tried again. */
export function answerMeans(status: number): 'delivered' | 'gone' | 'retry' {
  if (status >= 200 && status < 300) return 'delivered';
  return status === 410 ? 'gone' : 'retry';
}
