import type { CallStatus } from './schema';

/**
 * Where a call may go from each status: the one table the call store (stores/calls.ts) checks every change
 * against, and the call workflow's CallStatus search attribute follows (workflows/calls.ts). A change that
 * keeps the status is always allowed; a final status is never left.
 */
export const CALL_TRANSITIONS: Readonly<Record<CallStatus, readonly CallStatus[]>> = {
  // Dialled, waiting for a calling slot, or cancelled before it was; a dial that failed through every retry
  // before its attempt was recorded ends the call as failed.
  // The candidate may decline, or answer in writing (completed), on their link while the call waits.
  scheduled: ['waiting_for_capacity', 'in_progress', 'completed', 'failed', 'cancelled', 'declined'],
  waiting_for_capacity: ['scheduled', 'in_progress', 'completed', 'failed', 'cancelled', 'declined'],
  // A retry is scheduled, a busy provider sends the call back to wait, a cancel arrives mid-call, or it ends.
  in_progress: ['scheduled', 'waiting_for_capacity', 'cancelling', 'completed', 'failed', 'cancelled'],
  // The attempt under way finishes: a conversation that took place completes the call, anything else cancels it.
  cancelling: ['completed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
  declined: [],
};

/** Whether a call has ended: its status is one no move leaves. */
export const callEnded = (status: CallStatus): boolean => CALL_TRANSITIONS[status].length === 0;

/** Whether a call in `from` may move to `to`. */
export const callMayMove = (from: CallStatus, to: CallStatus): boolean => from === to || CALL_TRANSITIONS[from].includes(to);
