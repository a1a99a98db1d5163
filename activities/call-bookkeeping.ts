import type { FailureReason, AttemptResult } from '../shared/calls/retry';
import type { CallStatus, CancelReason } from '../shared/calls/schema';
import { callEvents } from '../stores/calls';
import { NotAnnouncedError } from '../stores/resource-store';
import type { CallDoc } from '../infra/documents/calls';
import type { CallActivityDeps, CallChanges } from './call-changes';

/**
 * A call's bookkeeping as its workflow moves it on: scheduled, an attempt ended, cancelling, ended. Each is one
 * change through the call store, which records and announces its events, and finds a repeated one made (and
 * announces it again). Each returns the call's status as its write left it, which the workflow shows operators
 * (its CallStatus search attribute).
 */
export function createCallBookkeepingActivities({ stores, clock }: CallActivityDeps, changes: CallChanges) {
  const { calls, load, loadWithReport, readReport, reported, releaseHeldSlot, giveSlotBack, attemptEnd, scheduled } = changes;
  /** An ended call gives its slot back and frees its candidate, once its change is written (stores/calls.ts). */
  const ended = (call: CallDoc) => async () => {
    await releaseHeldSlot(call);
    await stores.calls.freeCandidate(call);
  };
  return {
    async markScheduled(callId: string, dialAt: number): Promise<CallStatus> {
      const call = await load(callId);
      const { set, event } = scheduled(call, new Date(dialAt));
      return statusOf(await calls.change(call, { to: 'scheduled', events: [event], set }), 'scheduled');
    },

    /** `endedAt`: when the workflow took the result (its clock), else now. The attempt's slot is given back. */
    async recordAttempt(callId: string, attempt: number, result: AttemptResult, endedAt?: number): Promise<CallStatus> {
      const { call, report } = await loadWithReport(callId, attempt);
      // An attempt that was never recorded (the dial failed before it) has nothing to end.
      if (call.attempts[attempt - 1]?.number !== attempt) {
        await giveSlotBack(call);
        return call.status;
      }
      const changed = calls.change(call, {
        events: [callEvents.attemptEnded(attempt)],
        set: { ...reported(call, [report]), ...attemptEnd(call, attempt, result, endedAt === undefined ? clock() : new Date(endedAt)) },
      });
      return statusOf(await settle(changed, () => releaseHeldSlot(call)), call.status);
    },

    /**
     * A completed attempt ends the call: recordAttempt and finishCall in one write, which records both events
     * (`call.attempt.ended`, then `call.completed`; each shows the call completed). The slot is given back and
     * the candidate freed.
     */
    async completeCall(callId: string, attempt: number, endedAt: number): Promise<CallStatus> {
      const { call, report } = await loadWithReport(callId, attempt);
      const recorded = call.attempts[attempt - 1]?.number === attempt;
      const changed = calls.change(call, {
        to: 'completed',
        events: [...(recorded ? [callEvents.attemptEnded(attempt)] : []), callEvents.ended('completed')],
        set: {
          ...reported(call, [report]),
          ...(recorded ? attemptEnd(call, attempt, 'completed', new Date(endedAt)) : {}),
          failure_reason: null,
          next_attempt_at: null,
        },
      });
      return statusOf(await settle(changed, ended(call)), 'completed');
    },

    /** A cancel arrived during an attempt: the call shows it until the attempt ends. */
    async markCancelling(callId: string): Promise<CallStatus> {
      const call = await load(callId);
      if (call.status !== 'in_progress') return call.status;
      return statusOf(await calls.change(call, { to: 'cancelling' }), 'cancelling');
    },

    /** Ends the call and frees the candidate for a new call. `cancelReason`: why a cancelled call was (API or a contact rule). */
    async finishCall(
      callId: string,
      status: Extract<CallStatus, 'completed' | 'failed' | 'cancelled' | 'declined'>,
      reason: FailureReason | null,
      cancelReason?: CancelReason,
    ): Promise<CallStatus> {
      const call = await load(callId);
      // Reports of attempts given up on (no_outcome) that came in since: written in now, with the call's end.
      const late = await Promise.all(call.attempts.filter((a) => !a.reported_at).map((a) => readReport(callId, a.number)));
      const changed = calls.change(call, {
        to: status,
        events: [callEvents.ended(status)],
        set: {
          ...reported(call, late),
          failure_reason: reason,
          next_attempt_at: null,
          ...(cancelReason ? { cancel_reason: cancelReason } : {}),
        },
      });
      return statusOf(await settle(changed, ended(call)), status);
    },
  };
}

/** The status a change left the call in; `fallback` when the call is gone (erased data keeps its document). */
const statusOf = (call: { status: CallStatus } | null, fallback: CallStatus): CallStatus => call?.status ?? fallback;

/**
 * Runs `after` once the change is written, whether or not its announcement went out (the activity's retry
 * announces it): a candidate is never held by a call that has ended, and an attempt's slot is given back
 * only once its end is recorded, so no attempt a slot's next holder starts overlaps it in the stored calls
 * (the cap holds in what the API shows, a worker's death mid-change included).
 */
async function settle<T>(changed: Promise<T>, after: () => Promise<void>): Promise<T> {
  let result: T;
  try {
    result = await changed;
  } catch (err) {
    if (err instanceof NotAnnouncedError) await after();
    throw err;
  }
  await after();
  return result;
}
