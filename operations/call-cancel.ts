import type { CallDoc } from '../infra/documents/calls';
import type { CancelReason } from '../shared/calls/schema';
import type { OperationDeps } from './deps';

/**
 * The one cancel of a call, whoever asks for it and why: the API (`requested`), an erasure or a new
 * suppression (`opted_out`). The call's workflow makes the change (it owns the call's status, and announces
 * it): this signals it, with the reason, and the signal is durable once sent. A call waiting for a dial is
 * cancelled at once; one in an attempt is `cancelling` until the attempt ends, then cancelled without a retry
 * (or completed, when the candidate was reached). A call whose workflow call/initiate's fan-out has not
 * started yet is started with the cancel, so it ends cancelled at its first step. False when the call has
 * ended already.
 */
export function callCancel({ workflows }: Pick<OperationDeps, 'workflows'>) {
  return (call: CallDoc, reason: CancelReason): Promise<boolean> => workflows.cancelCall(call, reason);
}

export type CancelCall = ReturnType<typeof callCancel>;
