import { defineQuery, defineSignal, setHandler } from '@temporalio/workflow';

/**
 * Call-backs (docs/calls.md): a candidate calls the workspace's number back while their call waits for its
 * schedule or a retry. The API signals the call's workflow (`callBack`, which the Temporal UI shows on the
 * call) and asks it (`callBackAnswer`) which attempt the call-back is, or that it was refused. The workflow
 * decides both, at one moment of its own, so a call-back and a due dial never take one attempt twice.
 */

export interface CallBack {
  /** The voice provider's id of the inbound call. */
  providerCallId: string;
  /**
   * Epoch ms after which the caller has been answered without it: a signal the workflow takes later (its
   * worker was down) is refused, so no attempt waits for a call that went elsewhere.
   */
  answerBy: number;
}

/** The attempt a call-back became, or its refusal (the call was not waiting, or had one under way). */
export type CallBackAnswer = { attempt: number } | { refused: true };

export const callBackSignal = defineSignal<[CallBack]>('callBack');
/** Null until the workflow has taken the signal of that call. */
export const callBackAnswerQuery = defineQuery<CallBackAnswer | null, [string]>('callBackAnswer');

/**
 * The workflow's side: a call-back is taken only while `waiting()` says the call waits (shown `scheduled`),
 * and one at a time; it is numbered by `nextAttempt()`, which the caller then counts as used.
 */
export function acceptCallBacks(opts: { waiting: () => boolean; nextAttempt: () => number }) {
  const answers = new Map<string, CallBackAnswer>();
  let pending: (CallBack & { attempt: number }) | null = null;
  setHandler(callBackSignal, (c) => {
    if (answers.has(c.providerCallId)) return;
    if (pending || !opts.waiting() || Date.now() > c.answerBy) {
      answers.set(c.providerCallId, { refused: true });
      return;
    }
    pending = { ...c, attempt: opts.nextAttempt() };
    answers.set(c.providerCallId, { attempt: pending.attempt });
  });
  setHandler(callBackAnswerQuery, (id) => answers.get(id) ?? null);
  return {
    /** The call-back taken and not yet handled. */
    pending: () => pending,
    /** The call-back has been handled (its attempt ended). */
    done: () => void (pending = null),
  };
}
