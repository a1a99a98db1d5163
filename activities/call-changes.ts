import { ApplicationFailure } from '@temporalio/activity';
import { attemptPath, type CallDoc } from '../infra/documents/calls';
import { reportedFields, type CallReportDoc } from '../infra/documents/call-reports';
import type { AttemptResult } from '../shared/calls/retry';
import { callEvents } from '../stores/calls';
import type { ActivityDeps } from './deps';

/** What the call activities are built from (activities/calls.ts puts them together). */
export type CallActivityDeps = Pick<
  ActivityDeps,
  | 'stores'
  | 'operations'
  | 'logger'
  | 'clock'
  | 'voice'
  | 'whatsapp'
  | 'report'
  | 'wakeWaitingCall'
  | 'email'
  | 'emailFrom'
  | 'publicBaseUrl'
>;

/**
 * What every part of a call's activities shares: the call store, reading a call with its stored report, and
 * the pieces of the changes that end an attempt. Every read and write is an exact `_id` match, with conditions
 * checked in code after the read: one execution of an activity per call runs at a time, and on FerretDB an
 * extra filter field would scan every call.
 */
export function callChanges(deps: CallActivityDeps) {
  const { stores, logger, wakeWaitingCall } = deps;
  const { calls, callSlots } = stores;
  /** Gives a slot back, and tells the workspace's waiting call it took away, if another, to look again now. */
  const releaseSlot = async (call: CallDoc, slot: NonNullable<CallDoc['capacity_slot']>) => {
    const waiter = await callSlots.release(slot);
    if (waiter && waiter !== call._id) await wakeWaitingCall(waiter);
  };

  async function load(callId: string): Promise<CallDoc> {
    const call = await calls.get(callId);
    if (!call) throw ApplicationFailure.nonRetryable(`Call ${callId} does not exist`, 'CallNotFound');
    return call;
  }
  const readReport = (callId: string, attempt: number) => stores.callReports.get(callId, attempt);

  return {
    calls,
    load,
    readReport,

    /** The call and the stored report of its attempt, read together. */
    async loadWithReport(callId: string, attempt: number): Promise<{ call: CallDoc; report: CallReportDoc | null }> {
      const [call, report] = await Promise.all([load(callId), readReport(callId, attempt)]);
      return { call, report };
    },

    /**
     * The fields that write stored reports into the call (infra/documents/call-reports.ts), for the write that
     * ends their attempt; nothing for a report that is not there or is written in already.
     */
    reported(call: CallDoc, reports: Array<CallReportDoc | null>): Record<string, unknown> {
      let set: Record<string, unknown> = {};
      for (const report of reports) {
        const fields = report && reportedFields(call, report);
        if (!fields) continue;
        if (fields.notes.length > 0)
          logger.warn({ callId: call._id, attempt: report.attempt, notes: fields.notes }, 'extracted values dropped');
        set = { ...set, ...fields.set };
      }
      return set;
    },

    /**
     * Gives back the calling slot the call's record names, if its claim is still that attempt's: once the change
     * that ends the attempt is written (activities/call-bookkeeping.ts), so a crash between the two gives it back
     * at the retry. The record keeps naming it (the last slot the call held); the claim says whether it still does.
     */
    async releaseHeldSlot(call: CallDoc): Promise<void> {
      if (call.capacity_slot) await releaseSlot(call, call.capacity_slot);
    },

    /** Frees the calling slot the call holds, if any, when no change of the call is written with it. */
    async giveSlotBack(call: CallDoc): Promise<void> {
      if (!call.capacity_slot) return;
      await releaseSlot(call, call.capacity_slot);
      await calls.note(call._id, { capacity_slot: null });
    },

    /**
     * The fields of an attempt's end, for the write that records it. An attempt ends once: a repeat keeps the
     * time first recorded. A workflow task rerun after its worker died takes the result again on its own,
     * later clock; written over, that time showed the attempt under way after its slot had gone to the next
     * call (chaos (g): 4 attempts shown at once at a cap of 3).
     */
    attemptEnd(call: CallDoc, attempt: number, result: AttemptResult, endedAt: Date): Record<string, unknown> {
      const path = attemptPath(attempt);
      return {
        [`${path}.ended_at`]: call.attempts[attempt - 1]?.ended_at ?? endedAt,
        [`${path}.outcome`]: result === 'completed' ? 'completed' : 'failed',
        [`${path}.failure_reason`]: result === 'completed' ? null : result,
      };
    },

    /** The call waits for its dial at `when`: the fields and the `call.scheduled` event that show it. */
    scheduled(call: CallDoc, when: Date) {
      return {
        // scheduled_for keeps the first dial time.
        set: { next_attempt_at: when, ...(call.scheduled_for === null ? { scheduled_for: when } : {}) },
        event: callEvents.scheduled(call),
      };
    },
  };
}

export type CallChanges = ReturnType<typeof callChanges>;
