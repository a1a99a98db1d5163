import type { CallDoc } from '../infra/documents/calls';
import type { CallStatus, CancelReason } from '../shared/calls/schema';
import type { OperationDeps } from './deps';

/**
 * The one cancel of a call, whoever asks for it and why: the API (`requested`), an erasure or a new
 * suppression (`opted_out`). The call's workflow makes the change (it owns the call's status, and announces
 * it): this signals it, with the reason, and the signal is durable once sent. A call waiting for a dial is
 * cancelled at once; one in an attempt is `cancelling` until the attempt ends, then cancelled without a retry
 * (or completed, when the candidate was reached). A call whose workflow call/initiate's fan-out has not
 * started yet is started with the cancel, so it ends cancelled at its first step. False when the call has
 * ended already.
 *
 * `wait`: the caller's wait for the cancel's outcome (an Update to the workflow, after the signal): until the
 * cancel has `taken` or the call has `ended`, for up to `withinMs`; `outcome` is then the call's status, or
 * null when the workflow did not answer in time (the cancel, sent, still happens).
 */
export function callCancel({ workflows }: Pick<OperationDeps, 'workflows'>) {
  return async (
    call: CallDoc,
    reason: CancelReason,
    wait?: { until: 'taken' | 'ended'; withinMs: number },
  ): Promise<{ sent: boolean; outcome: CallStatus | null }> => {
    const sent = await workflows.cancelCall(call, reason);
    const outcome = sent && wait ? await workflows.cancelOutcome(call._id, wait.until, wait.withinMs) : null;
    return { sent, outcome };
  };
}

export type CancelCall = ReturnType<typeof callCancel>;
