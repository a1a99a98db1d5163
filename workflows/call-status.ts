import { upsertSearchAttributes } from '@temporalio/workflow';
import { callMayMove } from '../shared/calls/transitions';
import type { CallStatus } from '../shared/calls/schema';
import { CallStatusKey } from './search-attributes';

/** How the call workflow (calls.ts) shows a call's status to operators: its CallStatus search attribute. */
export function statusDisplay(callId: string, progress: { status: CallStatus }) {
  /**
   * Shows the call's status to operators (the CallStatus search attribute). It moves through the same table
   * as the stored call (shared/calls/transitions.ts): a move the table refuses is a defect, and fails the
   * workflow task, which Temporal retries and the UI shows, rather than labelling the call wrongly.
   */
  const setStatus = (status: CallStatus) => {
    if (!callMayMove(progress.status, status)) throw new Error(`call ${callId}: no move from ${progress.status} to ${status}`);
    progress.status = status;
    upsertSearchAttributes([{ key: CallStatusKey, value: status }]);
  };
  /** Shows the status an activity wrote and returned; the same again is not upserted. */
  const show = (status: CallStatus) => {
    if (status !== progress.status) setStatus(status);
  };
  /** A change of the call's status, written by `write`, which returns the status it left: shown from that. */
  const written = async (write: () => Promise<CallStatus>) => show(await write());
  return { show, written };
}
