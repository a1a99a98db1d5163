import { condition, defineUpdate, setHandler } from '@temporalio/workflow';
import type { AttemptResult } from '../shared/calls/retry';
import type { CallStatus } from '../shared/calls/schema';
import { local } from './call-activities';
import type { CallBack, CallBackAnswer } from '../shared/calls/call-backs';

/**
 * Call-backs (docs/calls.md): a candidate calls the workspace's number back while their call waits for its
 * schedule or a retry. The API asks the call's workflow with an Update (`callBack`, which the Temporal UI shows
 * on the call, with its answer): which attempt the call-back is, or that it was refused. The workflow decides,
 * at one moment of its own, so a call-back and a due dial never take one attempt twice. The same inbound call
 * asked again gets the same answer.
 */
export const callBackUpdate = defineUpdate<CallBackAnswer, [CallBack]>('callBack');

/** What the call workflow (calls.ts) lends its call-backs: its state, and its own wait for a report. */
export interface CallBackHost {
  callId: string;
  reportWithinMs: number;
  /** Whether the call is shown scheduled: waiting for a dial time then is the one moment a call-back is taken. */
  shownScheduled(): boolean;
  cancelled(): boolean;
  /** The number the next attempt takes, a dial's or a call-back's. */
  nextAttempt(): number;
  /** The call-back is attempt `attempt`, under way: the number is used. */
  began(attempt: number): void;
  /** It did not complete the call, which waits for `at` again. */
  resumed(at: number): void;
  show(status: CallStatus): void;
  awaitReport(attempt: number, waitMs: number): Promise<void>;
  resultOf(attempt: number): AttemptResult;
}

/**
 * The workflow's side of call-backs: taken only while the call waits for a dial time (its waits go through
 * `waitUntil`), one at a time, and numbered as the next attempt; `take` then runs the taken one as that
 * attempt (inbound), judged by its report as a dial is.
 */
export function acceptCallBacks(host: CallBackHost) {
  const answers = new Map<string, CallBackAnswer>();
  let pending: { providerCallId: string; attempt: number } | null = null;
  let waiting = false;
  let completed = false;
  const decide = (c: CallBack): CallBackAnswer => {
    if (pending || !waiting || host.cancelled() || Date.now() > c.answerBy) return { refused: true };
    pending = { providerCallId: c.providerCallId, attempt: host.nextAttempt() };
    return { attempt: pending.attempt };
  };
  setHandler(
    callBackUpdate,
    (c) => {
      const answer = answers.get(c.providerCallId) ?? decide(c);
      answers.set(c.providerCallId, answer);
      return answer;
    },
    {
      // Refused before it reaches the history: a call-back names its inbound call and when its answer is due.
      validator: (c) => {
        if (typeof c?.providerCallId !== 'string' || c.providerCallId === '' || !Number.isFinite(c.answerBy))
          throw new TypeError('a call-back names its inbound call (providerCallId) and its answer time (answerBy)');
      },
    },
  );

  /**
   * The pending call-back as its attempt: `completed` ends the call; otherwise the attempt is recorded and the
   * call waits for `resumeAt` again (`resumed`), unless it was cancelled meanwhile (`cancelled`). `refused`:
   * the call no longer waited when its attempt was to be recorded (erased or ended), and nothing was.
   */
  async function take(resumeAt: number): Promise<'completed' | 'cancelled' | 'resumed' | 'refused'> {
    const { callId, reportWithinMs } = host;
    const { attempt, providerCallId } = pending!;
    try {
      const begun = await local.beginCallBack(callId, attempt, providerCallId, reportWithinMs, Date.now());
      host.show(begun.status);
      if (!begun.begun) return 'refused';
      host.began(attempt);
      await host.awaitReport(attempt, reportWithinMs);
    } finally {
      pending = null;
    }
    const result = host.resultOf(attempt);
    if (result === 'completed') {
      host.show(await local.completeCall(callId, attempt, Date.now()));
      return 'completed';
    }
    host.show(await local.recordAttempt(callId, attempt, result, Date.now()));
    if (host.cancelled()) return 'cancelled';
    host.show(await local.markScheduled(callId, resumeAt));
    host.resumed(resumeAt);
    return 'resumed';
  }

  /** Waits until `at`, taking call-backs meanwhile; true when the call was cancelled, or a call-back completed it. */
  async function waitUntil(at: number): Promise<boolean> {
    for (;;) {
      const ms = at - Date.now();
      waiting = host.shownScheduled();
      if (ms > 0) await condition(() => host.cancelled() || pending !== null, ms);
      waiting = false;
      if (host.cancelled() || !pending) return host.cancelled();
      const taken = await take(at);
      if (taken === 'completed') completed = true;
      if (taken === 'completed' || taken === 'cancelled') return true;
    }
  }

  return { waitUntil, completed: () => completed };
}
