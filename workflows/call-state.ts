import { condition, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { ContactDecision, HeldContact } from '../activities/calls';
import { acts, local, orOnFailure } from './call-activities';
import { capacityWaitMs, LOST_REPORT_CHECKS } from '../shared/calls/capacity';
import type { CallStatus, CancelReason } from '../shared/calls/schema';
import type { AttemptResult, FailureReason } from '../shared/calls/retry';
import { callEnded, callMayMove } from '../shared/calls/transitions';
import { CandidateLink } from './candidate-link';
import { CallBacks } from './call-backs';
import { CallStatusKey } from './search-attributes';
import type { AttemptEnded, CallProgress, CallResume, CallWorkflowInput, ResumeStage } from './call-contract';
import { continueCall, runDeadline } from './call-runs';

/** A cancel has taken: the call ended, or shows `cancelling` while its attempt finishes. */
const cancelTaken = (status: CallStatus) => callEnded(status) || status === 'cancelling';

/** How a held contact's wait ended: `waited` until its moment, or why not. */
export type WindowWait = 'waited' | 'cancelled' | 'never' | 'opted_out';

/**
 * The state of one call's workflow (workflows/calls.ts), with the handlers of its messages and the waits its
 * main function is made of. The workflow function sets each handler to one method here; the methods decide,
 * in the workflow's own time, so a call-back, a cancel and a due dial never take one attempt twice.
 */
export class CallState {
  readonly callId: string;
  readonly progress: CallProgress = { status: 'scheduled', attempt: 0, nextAttemptAt: null };
  /** The first report of each attempt. */
  private readonly results = new Map<number, AttemptEnded>();
  cancelled = false;
  cancelReason: CancelReason = 'requested';
  private capacityChanges = 0;
  /** Attempt numbers used so far (dials and call-backs), and the dials among them, which the retry policy counts. */
  used = 0;
  dials = 0;
  /** Why the last attempt failed: the call's reason when it fails. */
  lastReason: FailureReason | null = null;
  /** When this run hands over: a long wait past it continues as new (call-runs.ts). */
  readonly deadline = runDeadline();
  private shownCancelling = false;
  /** The candidate's call-backs (call-backs.ts): their Update and signal, and the one taken that a wait runs. */
  readonly callBacks = new CallBacks(this);
  /** The call waits for a dial time: a call-back, or the candidate's link, may change that wait. */
  waitingForDialTime = false;
  /** A call-back completed the call: nothing is written after it, whatever the wait it ended was for. */
  completedByCallBack = false;
  /** The candidate's link to the call (candidate-link.ts): its Update, and what it leaves the waits to act on. */
  readonly link = new CandidateLink(this);
  /** The call's own place among waiters' look times, from its id: deterministic, so replays wait the same. */
  private readonly spread: number;

  constructor(readonly input: CallWorkflowInput) {
    this.callId = input.callId;
    this.spread = [...input.callId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1_000, 0) / 1_000;
    const resume = input.resume;
    if (resume) {
      // A run that continued as new: where the last one stood.
      Object.assign(this.progress, resume.progress);
      ({ used: this.used, dials: this.dials, lastReason: this.lastReason } = resume);
      this.link.restore(resume.link);
      this.callBacks.restore(resume.callBackAnswers);
    }
  }

  /** What the next run goes on from, when this one continues as new in the wait `stage` until `until`. */
  resumeFrom(stage: ResumeStage, until: number): CallResume {
    const { used, dials, lastReason } = this;
    return {
      stage,
      until,
      progress: { ...this.progress },
      used,
      dials,
      lastReason,
      link: this.link.saved(),
      callBackAnswers: this.callBacks.saved(),
    };
  }

  /** Continues the call as new in the wait `stage` until `until` (call-runs.ts). Never returns. */
  continueAsNew(stage: ResumeStage, until: number): Promise<never> {
    return continueCall(this, stage, until);
  }

  // The handlers of the workflow's messages.

  /** attemptResult: the first report of an attempt wins; duplicates and reports of other attempts change nothing. */
  reported = (r: AttemptEnded): void => {
    if (!this.results.has(r.attempt)) this.results.set(r.attempt, r);
  };

  /** cancelCall: the first reason given stands. */
  cancelAsked = (reason?: CancelReason): void => {
    if (!this.cancelled && reason) this.cancelReason = reason;
    this.cancelled = true;
  };

  /** cancelOutcome: the status once the cancel has taken, or once the call has ended. */
  cancelOutcome = async (until: 'taken' | 'ended'): Promise<CallStatus> => {
    const reached = until === 'ended' ? callEnded : cancelTaken;
    await condition(() => reached(this.progress.status));
    return this.progress.status;
  };

  /** capacityChanged: a call waiting for capacity looks again now. */
  capacityChanged = (): void => void this.capacityChanges++;

  // What operators see: the CallStatus search attribute.

  /**
   * Shows the status an activity wrote and returned; the same again is not upserted. It moves through the same
   * table as the stored call (shared/calls/transitions.ts): a move the table refuses is a defect, and fails the
   * workflow task, which Temporal retries and the UI shows, rather than labelling the call wrongly.
   */
  show(status: CallStatus): void {
    if (status === this.progress.status) return;
    if (!callMayMove(this.progress.status, status))
      throw new Error(`call ${this.callId}: no move from ${this.progress.status} to ${status}`);
    this.progress.status = status;
    upsertSearchAttributes([{ key: CallStatusKey, value: status }]);
  }

  /** A change of the call's status, written by `write`, which returns the status it left: shown from that. */
  async written(write: () => Promise<CallStatus>): Promise<void> {
    this.show(await write());
  }

  // The waits.

  /**
   * Waits until `at`; true when the call was cancelled meanwhile, or a call-back completed it. A call-back
   * meanwhile is its own attempt; one that does not complete the call leaves the wait as it was. A wait that
   * would take the run past its deadline continues as new there, in `resumeAs` (docs/calls.md, "Runs").
   */
  async waitUntil(at: number, resumeAs?: ResumeStage): Promise<boolean> {
    const { link } = this;
    link.callNowAsked = false;
    for (;;) {
      // The candidate's time, once they moved this dial on their link.
      const due = link.chosenAt ?? at;
      const ms = (resumeAs ? Math.min(due, this.deadline) : due) - Date.now();
      const moves = link.moves;
      this.waitingForDialTime = this.progress.status === 'scheduled';
      if (ms > 0) await condition(() => this.cancelled || this.callBacks.pending !== null || link.callNowAsked || link.moves !== moves, ms);
      this.waitingForDialTime = false;
      if (!this.cancelled && link.moves !== moves) continue;
      if (this.cancelled || !this.callBacks.pending) {
        // Its deadline came first: the next run waits out the rest.
        if (resumeAs && !this.cancelled && !link.callNowAsked && Date.now() < due) await this.continueAsNew(resumeAs, at);
        link.callNowAsked = false;
        link.chosenAt = null;
        return this.cancelled;
      }
      // A call-back that does not complete the call leaves the wait for the time it was for: the candidate's, if they moved it.
      const taken = await this.takeCallBack(link.chosenAt ?? at);
      if (taken === 'completed') this.completedByCallBack = true;
      if (taken === 'completed' || taken === 'cancelled') return true;
    }
  }

  /**
   * The pending call-back as its attempt (inbound), judged by its report as a dial is: `completed` ends the
   * call; otherwise the attempt is recorded and the call waits for `resumeAt` again (`resumed`), unless it was
   * cancelled meanwhile (`cancelled`). `refused`: the call no longer waited when its attempt was to be recorded
   * (erased or ended), and nothing was.
   */
  private async takeCallBack(resumeAt: number): Promise<'completed' | 'cancelled' | 'resumed' | 'refused'> {
    const { callId } = this;
    const reportWithinMs = this.input.outcomeTimeoutMs;
    const pending = this.callBacks.pending!;
    const { attempt, providerCallId } = pending;
    try {
      if (pending.withdrawn) return 'refused';
      const begun = await local.beginCallBack(callId, attempt, providerCallId, reportWithinMs, Date.now());
      this.show(begun.status);
      if (!begun.begun) return 'refused';
      this.callBacks.begun(pending);
      this.used = this.progress.attempt = attempt;
      this.progress.nextAttemptAt = null;
      await this.awaitReport(attempt, reportWithinMs);
    } finally {
      this.callBacks.pending = null;
    }
    const result = this.resultOf(attempt);
    if (result === 'completed') {
      this.show(await local.completeCall(callId, attempt, Date.now()));
      return 'completed';
    }
    this.show(await local.recordAttempt(callId, attempt, result, Date.now()));
    if (this.cancelled) return 'cancelled';
    this.show(await local.markScheduled(callId, resumeAt));
    this.progress.nextAttemptAt = resumeAt;
    return 'resumed';
  }

  /** The attempt's result as reported, or `no_outcome` when no report came. */
  resultOf(attempt: number): AttemptResult {
    return this.results.get(attempt)?.result ?? 'no_outcome';
  }

  /**
   * Waits for the attempt's report; when it does not come in time, asks the provider, and waits again while
   * the provider says the call is still going. A cancel meanwhile is shown as `cancelling`: the attempt
   * finishes, and no retry follows.
   */
  async awaitReport(attempt: number, waitMs: number): Promise<void> {
    const reported = () => this.results.has(attempt);
    /** Waits up to `ms` for the report; a cancel meanwhile is shown as `cancelling`, and the wait goes on. */
    const wait = async (ms: number) => {
      const until = Date.now() + ms;
      await condition(() => reported() || this.cancelled, ms);
      if (reported() || !this.cancelled) return;
      await this.showCancelling();
      if (until > Date.now()) await condition(reported, until - Date.now());
    };
    await wait(waitMs);
    for (let n = 0; n < LOST_REPORT_CHECKS && !reported(); n++) {
      const check = await orOnFailure(acts.checkAttempt(this.callId, attempt), { status: 'unknown' as const });
      if (check.status === 'unknown') break;
      if (check.status === 'ended') {
        if (!reported()) this.results.set(attempt, { attempt, result: check.result });
        break;
      }
      await wait(waitMs);
    }
  }

  private async showCancelling(): Promise<void> {
    if (this.shownCancelling) return;
    this.shownCancelling = true;
    await this.written(() => local.markCancelling(this.callId));
  }

  /**
   * Waits for one of the workspace's calling slots (max_concurrent_calls), `waiting_for_capacity` meanwhile,
   * looking again on a timer, or at once when the cap is raised. False when the call was cancelled while it
   * waited; the calling window's answer when it holds the dial (each dial is checked against the workspace's
   * calling window at its moment: the take decides it).
   */
  async takeSlot(attempt: number, dialAt?: number): Promise<boolean | HeldContact> {
    for (let n = 0; ; n++) {
      // Only the first look shows the call scheduled, so the activity tells a rerun of it (which announces
      // that again) from a later look.
      const at = n === 0 ? dialAt : undefined;
      const take = await local.takeCallSlot(this.callId, attempt, this.input.outcomeTimeoutMs, at ?? null, Date.now());
      this.show(take.status);
      if (take.taken) return true;
      if (take.held) return take.held;
      const seen = this.capacityChanges;
      await condition(() => this.cancelled || this.capacityChanges !== seen, capacityWaitMs(n, this.spread));
      if (this.cancelled) return false;
      // Waited for a slot past the run's deadline, or so long that its history nears the server's limits (a
      // look every 19 s at most): the next run looks again at once.
      if (Date.now() >= this.deadline || workflowInfo().continueAsNewSuggested) await this.continueAsNew('next_dial', Date.now());
    }
  }

  /**
   * Waits out a contact the calling window holds: `waited` until the moment it named (the caller looks again,
   * as the window may have changed meanwhile), `cancelled` meanwhile, or `never` when the candidate's zones
   * share no moment of the window. A held dial or pre-call message shows the call scheduled.
   */
  async waitOut(held: HeldContact, kind: 'dial' | 'pre_call' | 'fallback'): Promise<WindowWait> {
    if (!('at' in held)) return held.optedOut ? 'opted_out' : 'never';
    if (kind !== 'fallback') {
      // The deferral's write showed the call scheduled.
      if (held.status) this.show(held.status);
      this.progress.nextAttemptAt = held.at;
    }
    // A held dial looks again for a slot; a held pre-call message comes before the first dial.
    const resumeAs = kind === 'dial' ? 'next_dial' : kind === 'pre_call' ? 'first_dial' : 'fallback';
    return (await this.waitUntil(held.at, resumeAs)) ? 'cancelled' : 'waited';
  }

  /**
   * Looks at the calling window for a message due now until it lets the message go, the call is cancelled
   * meanwhile, or the zones share no moment of it. `held`: its first answer, had already.
   */
  async windowOpens(kind: 'pre_call' | 'fallback', held?: HeldContact): Promise<'go' | Exclude<WindowWait, 'waited'>> {
    for (let look: ContactDecision = held ?? (await local.contactWindow(this.callId, kind, Date.now())); ;) {
      if (look.go) return 'go';
      const window = await this.waitOut(look, kind);
      if (window !== 'waited') return window;
      look = await local.contactWindow(this.callId, kind, Date.now());
    }
  }

  /** Why the call ends when a held contact's wait does not end in `waited`. */
  endedBy(window: Exclude<WindowWait, 'waited'>): CancelReason {
    return window === 'cancelled' ? this.cancelReason : window === 'never' ? 'outside_calling_window' : window;
  }

  /**
   * The call cancelled, with `reason` (the one asked for by default), or ended as the candidate said on their
   * link (declined, or completed by their written answers); after a call-back completed it, nothing.
   */
  async cancel(reason: CancelReason = this.cancelReason): Promise<CallProgress> {
    if (this.completedByCallBack) return this.progress;
    if (!(await this.link.ended())) await this.written(() => local.finishCall(this.callId, 'cancelled', null, reason));
    return this.progress;
  }
}
