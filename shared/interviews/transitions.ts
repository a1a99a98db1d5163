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

/**
 * An invitation's stages as operators see them (the InterviewStatus search attribute): its stored statuses,
 * and the steps of its workflow between them, while they run.
 */
export type InterviewStage = InterviewStatus | 'preparing' | 'emailing' | 'assessing';

/** The workflow's own steps: the questions and the email before `invited`, the assessment after `completed`. */
const STEPS: Readonly<Partial<Record<InterviewStage, readonly InterviewStage[]>>> = {
  queued: ['preparing'],
  preparing: ['emailing', 'failed'],
  emailing: ['invited', 'failed'],
  completed: ['assessing'],
  assessing: ['completed'],
};

/**
 * Whether the workflow may show `to` after `from`: a step of its own, or a status the stored interview can
 * reach through the transition table (the workflow reads the interview now and then, so a candidate who started
 * and finished between two reads goes from invited to completed at once).
 */
export function interviewStageMayMove(from: InterviewStage, to: InterviewStage): boolean {
  if (from === to || STEPS[from]?.includes(to)) return true;
  if (!(from in INTERVIEW_TRANSITIONS) || !(to in INTERVIEW_TRANSITIONS)) return false;
  const seen = new Set<InterviewStatus>([from as InterviewStatus]);
  const next = [from as InterviewStatus];
  for (let s = next.pop(); s !== undefined; s = next.pop()) {
    for (const t of INTERVIEW_TRANSITIONS[s]) {
      if (t === to) return true;
      if (seen.has(t)) continue;
      seen.add(t);
      next.push(t);
    }
  }
  return false;
}
