import { allHandlersFinished, condition, defineQuery, defineSignal, defineUpdate, setHandler } from '@temporalio/workflow';
import type { HeldContact } from '../activities/calls';
import { acts, dialer, local, orOnFailure, sendTemplate } from './call-activities';
import { firstDialTime } from '../shared/calls/working-hours';
import { PROVIDER_BUSY_WAIT_MS } from '../shared/calls/capacity';
import { nextRetryTime } from '../shared/calls/retry';
import type { CallStatus, CancelReason } from '../shared/calls/schema';
import type { CallBack, CallBackAnswer } from '../shared/calls/call-backs';
import {
  CANDIDATE_CHOICE_KINDS,
  CANDIDATE_LINK_RULES,
  type CandidateChoice,
  type CandidateChoiceAnswer,
} from '../shared/calls/candidate-link';
import { CallState } from './call-state';
import type { AttemptEnded, CallProgress, CallWorkflowInput } from './call-contract';

export type { AttemptEnded, CallProgress, CallWorkflowInput } from './call-contract';

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
/** The workspace's calling cap was raised (`workspace:update`): a call waiting for capacity looks again now. */
export const capacityChangedSignal = defineSignal('capacityChanged');
export const callProgressQuery = defineQuery<CallProgress>('callProgress');
/**
 * Call-backs (docs/calls.md): a candidate calls the workspace's number back while their call waits for its
 * schedule or a retry. The API asks the call's workflow with this Update (which the Temporal UI shows on the
 * call, with its answer): which attempt the call-back is, or that it was refused. The same inbound call asked
 * again gets the same answer.
 */
export const callBackUpdate = defineUpdate<CallBackAnswer, [CallBack]>('callBack');
/**
 * The API told a call-back's caller that nothing was pending, having had no answer to callBack in time (its
 * worker slow or down): the inbound call's provider id. A signal: it needs no answer, and once sent it is kept
 * in the history, so a call-back the workflow took meanwhile never waits for a caller who hung up.
 */
export const callBackWithdrawnSignal = defineSignal<[string]>('callBackWithdrawn');
/**
 * The candidate's choice on their link: call me now, a time of their own, not interested, or
 * their written answers (docs/call-links.md). Its validator refuses what the call's state does not allow (its
 * message names why: `ended`, `under_way`, `too_many_moves`, `bad_time`, `form_only`); its answer says whether
 * and when the call will ring.
 */
export const candidateChoiceUpdate = defineUpdate<CandidateChoiceAnswer, [CandidateChoice]>('candidateChoice');

/**
 * One call to one candidate: wait for the first dial time, send the pre-call template, dial, wait for the
 * attempt's result, retry on the policy's reasons, and send the fallback template when the call finally fails.
 * Its state and the handlers of its messages are one object (call-state.ts); this reads top to bottom.
 */
export async function callWorkflow(input: CallWorkflowInput): Promise<CallProgress> {
  const call = new CallState(input);
  setHandler(attemptResultSignal, call.reported);
  setHandler(cancelCallSignal, call.cancelAsked);
  setHandler(cancelOutcomeUpdate, call.cancelOutcome, {
    validator: (until) => {
      if (until !== 'taken' && until !== 'ended') throw new TypeError(`a cancel's outcome is 'taken' or 'ended', not ${String(until)}`);
    },
  });
  setHandler(capacityChangedSignal, call.capacityChanged);
  setHandler(callProgressQuery, () => call.progress);
  setHandler(callBackUpdate, call.callBacks.asked, {
    // Refused before it reaches the history: a call-back names its inbound call and when its answer is due.
    validator: (c) => {
      if (typeof c?.providerCallId !== 'string' || c.providerCallId === '' || !Number.isFinite(c.answerBy))
        throw new TypeError('a call-back names its inbound call (providerCallId) and its answer time (answerBy)');
    },
  });
  setHandler(callBackWithdrawnSignal, call.callBacks.withdrawn);
  setHandler(candidateChoiceUpdate, call.link.chose, {
    validator: (c) => {
      if (!(CANDIDATE_CHOICE_KINDS as readonly string[]).includes(c?.kind) || (c.kind === 'move' && !Number.isFinite(c.at)))
        throw new TypeError('a candidate choice is call_now, move (with its time), decline or form');
      call.link.allowed(c);
    },
  });
  const progress = await runCall(call);
  // Every outcome asked for is answered before the workflow closes.
  await condition(allHandlersFinished);
  return progress;
}

async function runCall(call: CallState): Promise<CallProgress> {
  const { callId, input, progress } = call;
  // A run that continued as new goes on in the wait the one before it was in (docs/calls.md, "Runs").
  const resume = input.resume;
  if (resume?.stage === 'fallback') return fallbackOnceOpen(call, { go: false, at: resume.until });
  if (resume?.stage === 'form') return afterAttempts(call, resume.until);
  if (resume?.stage === 'next_dial') {
    if (await call.waitUntil(resume.until, 'next_dial')) return call.cancel();
    return dialUntilDone(call);
  }
  const firstDial = resume?.until ?? firstDialTime(Date.now(), input.scheduleAt, input.workingHours, input.hoursZones);
  progress.nextAttemptAt = firstDial;
  // The workflow starts with CallStatus `scheduled` already. A call that dials at once is shown scheduled by
  // the take of its first slot, in that write: one local activity, a read and a write less.
  const scheduledBySlot = !resume && firstDial <= Date.now();
  if (!resume) {
    if (!scheduledBySlot) call.show(await local.markScheduled(callId, firstDial));
    // The link by email, once, as the call is made: the candidate can choose before the call comes.
    if (input.emailLink) await sendLinkEmail(callId);
  }
  if (await call.waitUntil(firstDial, 'first_dial')) return call.cancel();

  // A candidate who used their link (it came with the pre-call message, or by email) has nothing to learn from it.
  if (input.sendPreCall && !call.link.acted) {
    const window = await call.windowOpens('pre_call');
    if (window !== 'go') return call.cancel(call.endedBy(window));
    await sendTemplate(callId, 'pre_call');
  }
  return dialUntilDone(call, scheduledBySlot ? firstDial : undefined);
}

/**
 * Dials each attempt as its slot, the calling window and the retry policy allow, until one completes the call
 * or none is left. `firstDial`: the first attempt's due time, when its take of a slot shows the call scheduled.
 */
async function dialUntilDone(call: CallState, firstDial?: number): Promise<CallProgress> {
  const { callId, input, progress } = call;
  for (;;) {
    // A call-back may have taken numbers while the call waited: the dial takes the next one.
    const attempt = call.used + 1;
    if (call.cancelled) return call.cancel();
    progress.attempt = attempt;
    progress.nextAttemptAt = null;
    const take = await call.takeSlot(attempt, attempt === 1 ? firstDial : undefined);
    if (take === false) return call.cancel();
    if (take !== true) {
      // Held by the calling window at the take, so a call that waited for capacity into the night does not
      // dial then: the same attempt looks for a slot again once the window opens.
      const window = await call.waitOut(take, 'dial');
      if (window !== 'waited') return call.cancel(call.endedBy(window));
      continue;
    }
    // A provider that stays unreachable through every retry fails the attempt, not the whole call.
    const dial = await orOnFailure(dialer.dial(callId, attempt), { accepted: false as const, reason: 'provider_error' as const });
    if ('callStatus' in dial && dial.callStatus) call.show(dial.callStatus);
    if (!dial.accepted && 'busy' in dial && dial.busy) {
      // The provider's own cap: no attempt took place. The slot goes back, and the same attempt waits its turn.
      await local.releaseCallSlot(callId);
      if (await call.waitUntil(Date.now() + (dial.retryAfterMs ?? PROVIDER_BUSY_WAIT_MS))) return call.cancel();
      continue;
    }
    // Past a busy provider the attempt took place: its number is used, and it is a dial the retry policy counts.
    // (A call-back is taken only while the call waits, never during the dial, so none can take it meanwhile.)
    call.used = attempt;
    call.dials++;
    if (dial.accepted) await call.awaitReport(attempt, dial.reportWithinMs ?? input.outcomeTimeoutMs);
    const result = dial.accepted ? call.resultOf(attempt) : dial.reason;
    // A conversation that took place completes the call, even one cancelled during it (its data is kept).
    if (result === 'completed') {
      await call.written(() => local.completeCall(callId, attempt, Date.now()));
      return progress;
    }
    call.show(await local.recordAttempt(callId, attempt, result, Date.now()));
    // A cancel during the attempt: no retry and no fallback.
    if (call.cancelled) return call.cancel();
    call.lastReason = result;
    const retryAt = nextRetryTime({
      policy: input.retryPolicy,
      failedAttempt: call.dials,
      reason: result,
      failedAt: Date.now(),
      workingHours: input.workingHours,
      hoursZones: input.hoursZones,
    });
    if (retryAt === null) return afterAttempts(call);
    // From the first failure, the written form is offered with the fallback message (form_fallback).
    if (input.formFallback === 'after_first_failure' && !call.link.acted && !call.link.formOffered) await offerForm(call);
    progress.nextAttemptAt = retryAt;
    await call.written(() => local.markScheduled(callId, retryAt));
    if (await call.waitUntil(retryAt, 'next_dial')) return call.cancel();
  }
}

/**
 * Its attempts spent: the call waits for the written answers of a candidate who has not used their link
 * (until `formUntil`, when a run continued as new in that wait), then fails, with its fallback message.
 */
async function afterAttempts(call: CallState, formUntil?: number): Promise<CallProgress> {
  const { callId, input, progress } = call;
  const lastReason = call.lastReason!;
  if (formUntil !== undefined || (input.formFallback && !call.link.acted)) {
    if (!call.link.formOffered) await offerForm(call);
    if (await call.link.waitForForm(formUntil ?? Date.now() + CANDIDATE_LINK_RULES.formWaitMs)) return call.cancel();
  }
  if (input.sendFallback && !call.link.formOffered) {
    const window = await local.contactWindow(callId, 'fallback', Date.now());
    if (!window.go) {
      // Held back by the calling window: the call fails now, as it has, and its message follows once the
      // window opens.
      await call.written(() => local.finishCall(callId, 'failed', lastReason));
      return fallbackOnceOpen(call, window);
    }
    await sendTemplate(callId, 'fallback');
  }
  await call.written(() => local.finishCall(callId, 'failed', lastReason));
  return progress;
}

/**
 * A failed call's fallback the calling window holds back: sent once the window opens, or recorded as not sent
 * when the candidate's zones share no moment of it.
 */
async function fallbackOnceOpen(call: CallState, held: HeldContact): Promise<CallProgress> {
  const window = await call.windowOpens('fallback', held);
  if (window === 'go') await sendTemplate(call.callId, 'fallback');
  if (window === 'never') await local.recordMessageFailure(call.callId, 'fallback', NO_WINDOW_MOMENT);
  return call.progress;
}

/** The link's email: one that still cannot be sent after its activity's retries is left unsent; the call goes on. */
async function sendLinkEmail(callId: string): Promise<void> {
  await orOnFailure(acts.emailCallLink(callId), null);
}

/**
 * Offers the written form on the call's own (form_fallback): its fallback message, which carries the
 * candidate's link, goes out now if the calling window lets it (the link's page offers the form from now on).
 */
async function offerForm(call: CallState): Promise<void> {
  call.link.formOffered = true;
  if (!call.input.sendFallback) return;
  const window = await local.contactWindow(call.callId, 'fallback', Date.now());
  if (window.go) await sendTemplate(call.callId, 'fallback');
}

/** Why a message was not sent when the candidate's zones share no moment of the calling window. */
const NO_WINDOW_MOMENT = "Not sent: the candidate's time zones share no moment of the workspace's calling window";
