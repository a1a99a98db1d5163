/** The contact rules' reasons, shown on a call (docs/contact-rules.md). */

/** Why a dial or message went out later than it was due. */
export const DEFERRAL_REASONS = ['calling_window'] as const;
export type DeferralReason = (typeof DEFERRAL_REASONS)[number];

/** Why a call was cancelled: by the API (`POST /calls/cancel`, `/calls/{id}/cancel`), or by a contact rule. */
export const CANCEL_REASONS = ['requested', 'outside_calling_window', 'opted_out'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Why a message was not sent at all (status `skipped`): the candidate opted out of it. */
export const SKIP_REASONS = ['opted_out'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
