import { allHandlersFinished, condition, defineQuery, defineSignal, defineUpdate, setHandler } from '@temporalio/workflow';
import type { ContactDecision, HeldContact } from '../activities/calls';
import { acts, dialer, local, orOnFailure, sendTemplate } from './call-activities';
import { firstDialTime } from '../shared/calls/working-hours';
import { capacityWaitMs, LOST_REPORT_CHECKS, PROVIDER_BUSY_WAIT_MS } from '../shared/calls/capacity';
import { nextRetryTime, type FailureReason, type AttemptResult } from '../shared/calls/retry';
import type { CallStatus, CancelReason, RetryPolicy, WorkingHours } from '../shared/calls/schema';
import { statusDisplay } from './call-status';
import { acceptCallBacks } from './call-backs';

export interface CallWorkflowInput {
  callId: string;
  /** Epoch ms of schedule_at, used as given; null to dial now, within working hours. */
  scheduleAt: number | null;
  workingHours: WorkingHours | null;
  /** The zones the working hours are in: absent for UTC (working_hours.timezone). */
  hoursZones?: string[];
  retryPolicy: RetryPolicy | null;
  sendPreCall: boolean;
  sendFallback: boolean;
  /**
   * How long to wait for an attempt's report when the dial does not say (`reportWithinMs`: the provider's
   * longest call plus a grace). Then the provider is asked (when it can be); a call it says is still going
   * gets another wait, up to LOST_REPORT_CHECKS times, before the attempt counts as no_outcome.
   */
  outcomeTimeoutMs: number;
}

/** How one attempt ended, as its provider reported it; carried in by the provider-callback path. */
export interface AttemptEnded {
  attempt: number;
  result: AttemptResult;
}

export interface CallProgress {
  status: CallStatus;
  attempt: number;
  nextAttemptAt: number | null;
}

export const attemptResultSignal = defineSignal<[AttemptEnded]>('attemptResult');
/**
 * Cancels the call: `requested` through the API (the default), or `opted_out` when its phone was suppressed.
 * A signal, so the cancel is kept in the history once sent, whether or not a worker is up to take it.
 */
export const cancelCallSignal = defineSignal<[CancelReason?]>('cancelCall');
/**
 * The call's status once a cancel has taken (`taken`: cancelled, or `cancelling` while an attempt under way
 * finishes) or once the call has ended (`ended`); `completed` or `failed` when it ended first. The caller of a
 * cancel asks this after its signal, and answers its own caller with what it found.
 */
export const cancelOutcomeUpdate = defineUpdate<CallStatus, ['taken' | 'ended']>('cancelOutcome');
const ENDED: ReadonlySet<CallStatus> = new Set(['cancelled', 'completed', 'failed']);
const CANCEL_TAKEN: ReadonlySet<CallStatus> = new Set([...ENDED, 'cancelling']);
/** The workspace's calling cap was raised (`workspace:update`): a call waiting for capacity looks again now. */
export const capacityChangedSignal = defineSignal('capacityChanged');
export const callProgressQuery = defineQuery<CallProgress>('callProgress');

/**
 * One call to one candidate: wait for the first dial time, send the pre-call template, dial, wait for the
 * attempt's result, retry on the policy's reasons, and send the fallback template when the call finally fails.
 */
export async function callWorkflow(input: CallWorkflowInput): Promise<CallProgress> {
  const progress = await runCall(input);
  // Every outcome asked for is answered before the workflow closes.
  await condition(allHandlersFinished);
  return progress;
}

async function runCall(input: CallWorkflowInput): Promise<CallProgress> {
  const { callId } = input;
  const progress: CallProgress = { status: 'scheduled', attempt: 0, nextAttemptAt: null };
  const results = new Map<number, AttemptEnded>();
  let cancelled = false;
  let cancelReason: CancelReason = 'requested';
  setHandler(attemptResultSignal, (r) => {
    // The first report of an attempt wins; duplicates and reports of other attempts change nothing.
    if (!results.has(r.attempt)) results.set(r.attempt, r);
  });
  setHandler(cancelCallSignal, (reason) => {
    if (!cancelled && reason) cancelReason = reason;
    cancelled = true;
  });
  setHandler(
    cancelOutcomeUpdate,
    async (until) => {
      const reached = until === 'ended' ? ENDED : CANCEL_TAKEN;
      await condition(() => reached.has(progress.status));
      return progress.status;
    },
    {
      validator: (until) => {
        if (until !== 'taken' && until !== 'ended') throw new TypeError(`a cancel's outcome is 'taken' or 'ended', not ${String(until)}`);
      },
    },
  );
  let capacityChanges = 0;
  setHandler(capacityChangedSignal, () => void capacityChanges++);
  setHandler(callProgressQuery, () => progress);
  /** Attempt numbers used so far (dials and call-backs), and the dials among them, which the retry policy counts. */
  let used = 0;
  let dials = 0;
  const callBacks = acceptCallBacks({
    callId,
    reportWithinMs: input.outcomeTimeoutMs,
    shownScheduled: () => progress.status === 'scheduled',
    cancelled: () => cancelled,
    nextAttempt: () => used + 1,
    began: (attempt) => {
      used = progress.attempt = attempt;
      progress.nextAttemptAt = null;
    },
    resumed: (at) => void (progress.nextAttemptAt = at),
    show: (status) => show(status),
    awaitReport: (attempt, ms) => awaitReport(attempt, ms),
    resultOf: (attempt) => results.get(attempt)?.result ?? 'no_outcome',
  });
  // The status shown is the one each activity wrote and returned, not one the workflow names beside it.
  const { show, written } = statusDisplay(callId, progress);
  /**
   * Waits until `at`; true when the call was cancelled meanwhile, or a call-back completed it. A call-back
   * meanwhile is its own attempt; one that does not complete the call leaves the wait as it was (call-backs.ts).
   */
  const waitUntil = (at: number) => callBacks.waitUntil(at);
  let shownCancelling = false;
  const showCancelling = async () => {
    if (shownCancelling) return;
    shownCancelling = true;
    await written(() => local.markCancelling(callId));
  };
  /**
   * Waits for the attempt's report; when it does not come in time, asks the provider, and waits again while
   * the provider says the call is still going. A cancel meanwhile is shown as `cancelling`: the attempt
   * finishes, and no retry follows.
   */
  const awaitReport = async (attempt: number, waitMs: number): Promise<void> => {
    const reported = () => results.has(attempt);
    /** Waits up to `ms` for the report; a cancel meanwhile is shown as `cancelling`, and the wait goes on. */
    const wait = async (ms: number) => {
      const until = Date.now() + ms;
      await condition(() => reported() || cancelled, ms);
      if (reported() || !cancelled) return;
      await showCancelling();
      if (until > Date.now()) await condition(reported, until - Date.now());
    };
    await wait(waitMs);
    for (let n = 0; n < LOST_REPORT_CHECKS && !reported(); n++) {
      const check = await orOnFailure(acts.checkAttempt(callId, attempt), { status: 'unknown' as const });
      if (check.status === 'unknown') break;
      if (check.status === 'ended') {
        if (!reported()) results.set(attempt, { attempt, result: check.result });
        break;
      }
      await wait(waitMs);
    }
  };
  // The call's own place among waiters' look times, from its id: deterministic, so replays wait the same.
  const spread = [...callId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1_000, 0) / 1_000;
  /**
   * Waits for one of the workspace's calling slots (max_concurrent_calls), `waiting_for_capacity` meanwhile,
   * looking again on a timer, or at once when the cap is raised. False when the call was cancelled while it
   * waited; the calling window's answer when it holds the dial (each dial is checked against the workspace's
   * calling window at its moment: the take decides it).
   */
  const takeSlot = async (attempt: number, dialAt?: number): Promise<boolean | HeldContact> => {
    for (let n = 0; ; n++) {
      // Only the first look shows the call scheduled, so the activity tells a rerun of it (which announces
      // that again) from a later look. A replay takes a local activity's result from its marker and compares
      // no arguments: no patch is needed.
      const at = n === 0 ? dialAt : undefined;
      const take = await local.takeCallSlot(callId, attempt, input.outcomeTimeoutMs, at ?? null, Date.now());
      show(take.status);
      if (take.taken) return true;
      if (take.held) return take.held;
      const seen = capacityChanges;
      await condition(() => cancelled || capacityChanges !== seen, capacityWaitMs(n, spread));
      if (cancelled) return false;
    }
  };
  const cancel = async (reason: CancelReason = cancelReason) => {
    // A call-back completed the call: nothing is written after it, whatever the wait it ended was for.
    if (callBacks.completed()) return progress;
    await written(() => local.finishCall(callId, 'cancelled', null, reason));
    return progress;
  };
  /**
   * Waits out a contact the calling window holds: `waited` until the moment it named
   * (the caller looks again, as the window may have changed meanwhile), `cancelled` meanwhile, or `never` when
   * the candidate's zones share no moment of the window. A held dial or pre-call message shows the call scheduled.
   */
  const waitOut = async (held: HeldContact, kind: 'dial' | 'pre_call' | 'fallback') => {
    if (!('at' in held)) return held.optedOut ? ('opted_out' as const) : ('never' as const);
    if (kind !== 'fallback') {
      // The deferral's write showed the call scheduled.
      if (held.status) show(held.status);
      progress.nextAttemptAt = held.at;
    }
    return (await waitUntil(held.at)) ? ('cancelled' as const) : ('waited' as const);
  };
  /** Why the call ends when a held contact's wait does not end in `waited`. */
  const endedBy = (window: 'cancelled' | 'never' | 'opted_out'): CancelReason =>
    window === 'cancelled' ? cancelReason : window === 'never' ? 'outside_calling_window' : window;
  /**
   * Looks at the calling window for a message due now until it lets the message go, the call is cancelled
   * meanwhile, or the zones share no moment of it. `held`: its first answer, had already.
   */
  const windowOpens = async (kind: 'pre_call' | 'fallback', held?: HeldContact) => {
    for (let look: ContactDecision = held ?? (await local.contactWindow(callId, kind, Date.now())); ;) {
      if (look.go) return 'go' as const;
      const window = await waitOut(look, kind);
      if (window !== 'waited') return window;
      look = await local.contactWindow(callId, kind, Date.now());
    }
  };

  const firstDial = firstDialTime(Date.now(), input.scheduleAt, input.workingHours, input.hoursZones);
  progress.nextAttemptAt = firstDial;
  // The workflow starts with CallStatus `scheduled` already. A call that dials at once is shown scheduled by
  // the take of its first slot, in that write: one local activity, a read and a write less.
  const scheduledBySlot = firstDial <= Date.now();
  if (!scheduledBySlot) {
    show(await local.markScheduled(callId, firstDial));
  }
  if (await waitUntil(firstDial)) return cancel();

  if (input.sendPreCall) {
    const window = await windowOpens('pre_call');
    if (window !== 'go') return cancel(endedBy(window));
    await sendTemplate(callId, 'pre_call');
  }

  let lastReason: FailureReason;
  for (;;) {
    // A call-back may have taken numbers while the call waited: the dial takes the next one.
    const attempt = used + 1;
    if (cancelled) return cancel();
    progress.attempt = attempt;
    progress.nextAttemptAt = null;
    const take = await takeSlot(attempt, scheduledBySlot && attempt === 1 ? firstDial : undefined);
    if (take === false) return cancel();
    if (take !== true) {
      // Held by the calling window at the take, so a call that waited for capacity into the night does not
      // dial then: the same attempt looks for a slot again once the window opens.
      const window = await waitOut(take, 'dial');
      if (window !== 'waited') return cancel(endedBy(window));
      continue;
    }
    // A provider that stays unreachable through every retry fails the attempt, not the whole call.
    const dial = await orOnFailure(dialer.dial(callId, attempt), { accepted: false as const, reason: 'provider_error' as const });
    if ('callStatus' in dial && dial.callStatus) show(dial.callStatus);
    if (!dial.accepted && 'busy' in dial && dial.busy) {
      // The provider's own cap: no attempt took place. The slot goes back, and the same attempt waits its turn.
      await local.releaseCallSlot(callId);
      if (await waitUntil(Date.now() + (dial.retryAfterMs ?? PROVIDER_BUSY_WAIT_MS))) return cancel();
      continue;
    }
    // Past a busy provider the attempt took place: its number is used, and it is a dial the retry policy counts.
    // (A call-back is taken only while the call waits, never during the dial, so none can take it meanwhile.)
    used = attempt;
    dials++;
    if (dial.accepted) await awaitReport(attempt, dial.reportWithinMs ?? input.outcomeTimeoutMs);
    const result = dial.accepted ? (results.get(attempt)?.result ?? 'no_outcome') : dial.reason;
    // A conversation that took place completes the call, even one cancelled during it (its data is kept).
    if (result === 'completed') {
      await written(() => local.completeCall(callId, attempt, Date.now()));
      return progress;
    }
    show(await local.recordAttempt(callId, attempt, result, Date.now()));
    // A cancel during the attempt: no retry and no fallback.
    if (cancelled) return cancel();
    lastReason = result;
    const retryAt = nextRetryTime({
      policy: input.retryPolicy,
      failedAttempt: dials,
      reason: result,
      failedAt: Date.now(),
      workingHours: input.workingHours,
      hoursZones: input.hoursZones,
    });
    if (retryAt === null) break;
    progress.nextAttemptAt = retryAt;
    await written(() => local.markScheduled(callId, retryAt));
    if (await waitUntil(retryAt)) return cancel();
  }

  if (input.sendFallback) {
    const window = await local.contactWindow(callId, 'fallback', Date.now());
    if (!window.go) return failThenFallback(lastReason, window);
    await sendTemplate(callId, 'fallback');
  }
  await written(() => local.finishCall(callId, 'failed', lastReason));
  return progress;

  /**
   * A fallback the calling window holds back: the call fails now, as it has, and its message follows once the
   * window opens, or is recorded as not sent when the candidate's zones share no moment of it.
   */
  async function failThenFallback(reason: FailureReason, held: HeldContact): Promise<CallProgress> {
    await written(() => local.finishCall(callId, 'failed', reason));
    const window = await windowOpens('fallback', held);
    if (window === 'go') await sendTemplate(callId, 'fallback');
    if (window === 'never') await local.recordMessageFailure(callId, 'fallback', NO_WINDOW_MOMENT);
    return progress;
  }
}

/** Why a message was not sent when the candidate's zones share no moment of the calling window. */
const NO_WINDOW_MOMENT = "Not sent: the candidate's time zones share no moment of the workspace's calling window";
