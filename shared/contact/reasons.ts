/** The contact rules' reasons, shown on a call (docs/contact-rules.md). */

/**
 * Why a dial or message went out later than it was due: the workspace's calling window, or its cap of dials to
 * one phone in 24 hours (`max_dials_per_phone_per_day`).
 */
export const DEFERRAL_REASONS = ['calling_window', 'daily_dial_cap'] as const;
export type DeferralReason = (typeof DEFERRAL_REASONS)[number];

/** Why a call was cancelled: by the API (`POST /calls/cancel`, `/calls/{id}/cancel`), or by a contact rule. */
export const CANCEL_REASONS = ['requested', 'outside_calling_window', 'opted_out'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Why a message was not sent at all (status `skipped`): the candidate opted out of it. */
export const SKIP_REASONS = ['opted_out'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
