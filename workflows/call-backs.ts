import type { CallBack, CallBackAnswer } from '../shared/calls/call-backs';
import type { AttemptEnded } from './call-contract';

/** What the call's state (call-state.ts) lends its call-backs: whether it waits for a dial, its attempts, its reports. */
export interface CallBackHost {
  /** The call waits for a dial time: only then is a call-back taken. */
  readonly waitingForDialTime: boolean;
  readonly cancelled: boolean;
  /** Attempt numbers used so far: a call-back taken is the next. */
  readonly used: number;
  /** An attempt's report; the first of each attempt wins. */
  reported(r: AttemptEnded): void;
}

/** The call-back taken and not yet run: its attempt's number, whether it was recorded, whether the API withdrew it. */
export interface PendingCallBack {
  readonly providerCallId: string;
  readonly attempt: number;
  begun: boolean;
  withdrawn: boolean;
}

/**
 * A candidate's call-backs (docs/calls.md), as the call's workflow holds them: the callBack Update's handler
 * and the callBackWithdrawn signal's, each inbound call's answer, and the one taken that the call's wait
 * (call-state.ts) runs as its next attempt.
 */
export class CallBacks {
  /** Each inbound call's answer: the same call asked again gets the same one. */
  private readonly answers = new Map<string, CallBackAnswer>();
  /** The call-back taken and not yet run, one at a time. */
  pending: PendingCallBack | null = null;

  constructor(private readonly call: CallBackHost) {}

  /** The answers the next run of the call keeps (call-runs.ts): no call-back is pending when a run hands over. */
  saved(): Array<[string, CallBackAnswer]> {
    return [...this.answers];
  }

  restore(answers: Array<[string, CallBackAnswer]>): void {
    for (const [providerCallId, answer] of answers) this.answers.set(providerCallId, answer);
  }

  /**
   * callBack: taken only while the call waits for a dial time, one at a time, and numbered as the next attempt;
   * the same inbound call asked again gets the same answer.
   */
  asked = (c: CallBack): CallBackAnswer => {
    const answer = this.answers.get(c.providerCallId) ?? this.decide(c);
    this.answers.set(c.providerCallId, answer);
    return answer;
  };

  private decide(c: CallBack): CallBackAnswer {
    const { call } = this;
    if (this.pending || !call.waitingForDialTime || call.cancelled || Date.now() > c.answerBy) return { refused: true };
    this.pending = { providerCallId: c.providerCallId, attempt: call.used + 1, begun: false, withdrawn: false };
    return { attempt: this.pending.attempt };
  }

  /**
   * callBackWithdrawn: the API heard no answer to the callBack Update in time and told the caller nothing was
   * pending. The workflow's answer may still have been "taken", decided in time and delivered late; that
   * call-back has no caller, so it is not begun, or its attempt ends at once as `call_back_incomplete` (the
   * first report of an attempt wins, so no later one changes it). One not yet asked will be refused.
   */
  withdrawn = (providerCallId: string): void => {
    if (typeof providerCallId !== 'string') return;
    if (!this.answers.has(providerCallId)) this.answers.set(providerCallId, { refused: true });
    const { pending } = this;
    if (pending?.providerCallId !== providerCallId) return;
    pending.withdrawn = true;
    this.endIfWithdrawn(pending);
  };

  /** The pending call-back's attempt was recorded: one withdrawn meanwhile ends at once. */
  begun(pending: PendingCallBack): void {
    pending.begun = true;
    this.endIfWithdrawn(pending);
  }

  /** A call-back whose attempt was recorded and whose caller heard nothing was pending has no conversation to wait for. */
  private endIfWithdrawn(pending: PendingCallBack): void {
    if (pending.begun && pending.withdrawn) this.call.reported({ attempt: pending.attempt, result: 'call_back_incomplete' });
  }
}
