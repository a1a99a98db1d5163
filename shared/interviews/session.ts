import type { Question } from '../jobs/schema';

/**
 * The rules of taking an interview, pure so the page and its tests share them. The server's clock decides:
 * a question's time starts when the server first serves it, and an answer counts if it arrives within the
 * question's limit plus a grace for the network and a slow submit.
 */
export const ANSWER_GRACE_SECONDS = 15;
/** The longest typed answer, in characters. */
export const MAX_TEXT_ANSWER = 10_000;

/** Whether an answer arriving `now` to a question served at `servedAt` is in time. */
export function inTime(question: Question, servedAt: Date, now: Date): boolean {
  return now.getTime() <= servedAt.getTime() + (question.time_limit_seconds + ANSWER_GRACE_SECONDS) * 1_000;
}

/** Whole seconds left of the question's own limit (the grace is not shown), never below 0. */
export function secondsLeft(question: Question, servedAt: Date, now: Date): number {
  return Math.max(0, Math.ceil((servedAt.getTime() + question.time_limit_seconds * 1_000 - now.getTime()) / 1_000));
}
