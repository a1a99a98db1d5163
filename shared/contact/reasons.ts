/** The contact rules' reasons, shown on a call (docs/contact-rules.md). */

/**
 * Why a dial or message went out later than it was due: the workspace's calling window, its cap of dials to
 * one phone in 24 hours (`max_dials_per_phone_per_day`), or its requirement of consent to AI voice calls
 * (`voice_consent_required`, turned on after a call without consent was made: the dial waits, and looks again
 * each hour, until the requirement is turned off).
 */
export const DEFERRAL_REASONS = ['calling_window', 'daily_dial_cap', 'consent_required'] as const;
export type DeferralReason = (typeof DEFERRAL_REASONS)[number];

/** Why a call was cancelled: by the API (`POST /calls/cancel`, `/calls/{id}/cancel`), or by a contact rule. */
export const CANCEL_REASONS = ['requested', 'outside_calling_window', 'opted_out'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Why a message was not sent at all (status `skipped`): the candidate opted out of it. */
export const SKIP_REASONS = ['opted_out'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * Why a message to a person is recorded `unknown` (docs/reliability.md, "Once to a person"): its send got no
 * answer (a worker died during it, or the provider did not answer in time), so it may have gone, and it is
 * never sent again.
 */
export const SEND_UNANSWERED = 'Its send got no answer, so it may have gone: it was not sent again';
