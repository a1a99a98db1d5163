/** A candidate's call-back as the API tells it to the call's workflow (its Update, workflows/calls.ts), and its answer. */

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
