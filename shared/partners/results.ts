import type { Recommendation } from '../interviews/assessment';

/**
 * Where an ATS's order stands, in our own terms, before each door says it in its ATS's: sent, then in
 * progress, then one end. `version` only grows, so a result is pushed once, and never after a later one.
 */
export const PARTNER_STATES = ['sent', 'in_progress', 'completed', 'expired', 'cancelled', 'declined', 'failed'] as const;
export type PartnerState = (typeof PARTNER_STATES)[number];

export interface PartnerResult {
  state: PartnerState;
  /** 1 sent, 2 in progress, 3 an end: a push goes out only when it grows. */
  version: number;
  score: { value: number; minimum: number; maximum: number } | null;
  recommendation: Recommendation | null;
  summary: string | null;
  /** A phone screen's extracted values (as the call stores them). */
  values: Record<string, unknown> | null;
}

const VERSION: Record<PartnerState, number> = { sent: 1, in_progress: 2, completed: 3, expired: 3, cancelled: 3, declined: 3, failed: 3 };
export const isEnd = (state: PartnerState) => VERSION[state] === 3;

/** The interview as its result needs it (infra/documents/interviews.ts). */
export interface InterviewLike {
  status: 'queued' | 'invited' | 'started' | 'completed' | 'expired' | 'failed';
  assessment?: {
    status: 'pending' | 'completed' | 'failed' | 'declined';
    overall: { score: number; summary: string; recommendation: Recommendation } | null;
  } | null;
}

/** The call as its result needs it (infra/documents/calls.ts). */
export interface CallLike {
  status: string;
  cancel_reason?: string | null;
  attempts: ReadonlyArray<unknown>;
  extracted_variables?: Record<string, unknown> | null;
}

function result(state: PartnerState, rest: Partial<PartnerResult> = {}): PartnerResult {
  return { state, version: VERSION[state], score: null, recommendation: null, summary: null, values: null, ...rest };
}

/**
 * An interview's result: in progress from the candidate's start until its assessment is made; completed with
 * the overall score (1 to 5), our recommendation and the summary; `declined` when the candidate asked for a
 * person instead of the AI; `cancelled` when the ATS cancelled it (`cancelled`).
 */
export function interviewResult(i: InterviewLike, cancelled: boolean): PartnerResult {
  if (i.assessment?.status === 'declined') return result('declined');
  if (i.status === 'completed' && i.assessment?.status === 'completed' && i.assessment.overall) {
    const { score, recommendation, summary } = i.assessment.overall;
    return result('completed', { score: { value: score, minimum: 1, maximum: 5 }, recommendation, summary });
  }
  if (i.status === 'completed' && i.assessment?.status === 'failed')
    return result('completed', { summary: 'The answers could not be assessed.' });
  if (cancelled) return result('cancelled');
  if (i.status === 'expired') return result('expired');
  if (i.status === 'failed') return result('failed');
  return result(i.status === 'started' || i.status === 'completed' ? 'in_progress' : 'sent');
}

/**
 * A phone screen's result: in progress once a dial was made; completed with the values the call extracted;
 * `declined` when the candidate opted out (a STOP, the page's "don't contact me") or said "not interested" on
 * their call's link, `cancelled` otherwise.
 */
export function callResult(c: CallLike): PartnerResult {
  if (c.status === 'completed') return result('completed', { values: c.extracted_variables ?? {} });
  if (c.status === 'failed') return result('failed');
  if (c.status === 'declined') return result('declined');
  if (c.status === 'cancelled' || c.status === 'cancelling') return result(c.cancel_reason === 'opted_out' ? 'declined' : 'cancelled');
  return result(c.attempts.length > 0 ? 'in_progress' : 'sent');
}
