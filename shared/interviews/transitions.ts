import type { InterviewStatus } from './schema';

/**
 * Where an interview may go from each status: the one table the interview store (stores/interviews.ts) checks
 * every change against. A change that keeps the status is always allowed.
 */
export const INTERVIEW_TRANSITIONS: Readonly<Record<InterviewStatus, readonly InterviewStatus[]>> = {
  queued: ['invited', 'failed'],
  // A resend the workflow could not be told of is taken back: an invitation reopened from `expired` expires again.
  invited: ['started', 'expired', 'failed'],
  started: ['completed', 'expired'],
  // A resend opens the link again where the candidate left it.
  expired: ['invited', 'started'],
  completed: [],
  failed: [],
};

/** Whether an interview in `from` may move to `to`. */
export const interviewMayMove = (from: InterviewStatus, to: InterviewStatus): boolean =>
  from === to || INTERVIEW_TRANSITIONS[from].includes(to);
