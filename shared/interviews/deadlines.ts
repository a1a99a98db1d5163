/**
 * When an interview link expires and when its candidate is reminded, pure so the API, the page and the
 * workflow read the same rules. A link lasts `expires_in_days` from the invitation; one reminder goes out at
 * half that time to a candidate who has not started; a resend gives an expired link the default period again.
 */
export const EXPIRES_IN_DAYS = { minimum: 1, maximum: 60, default: 14 } as const;
/** A second resend of one interview within this time is refused with a 429. */
export const RESEND_COOLDOWN_SECONDS = 60;

const DAY_MS = 86_400_000;

export function expiryAfter(from: Date, days: number = EXPIRES_IN_DAYS.default): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

/** Half the time between the invitation and its first deadline (a resend moves the deadline, not the reminder). */
export function reminderAt(invitedAt: Date, expiresAt: Date): Date {
  return new Date(invitedAt.getTime() + (expiresAt.getTime() - invitedAt.getTime()) / 2);
}

/** Whether a link whose interview is not finished has run out at `now`. */
export function hasExpired(expiresAt: Date, now: Date): boolean {
  return now.getTime() >= expiresAt.getTime();
}

/**
 * Whether an interview's link is closed by its deadline at `now`: marked expired, or still open (invited or
 * started) past its deadline, which the page honours before the workflow gets there.
 */
export function linkExpired(status: string, expiresAt: Date, now: Date): boolean {
  return status === 'expired' || ((status === 'invited' || status === 'started') && hasExpired(expiresAt, now));
}
