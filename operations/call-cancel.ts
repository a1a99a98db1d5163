import type { CallDoc } from '../infra/documents/calls';
import type { WorkspaceDoc } from '../infra/documents/workspaces';
import { ConflictError, NotFoundError } from '../shared/errors';
import { FINAL_CALL_STATUSES, type CallStatus, type CancelReason } from '../shared/calls/schema';
import type { CallCancelRequest, CallCancelResponse } from '../shared/calls/resource';
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

/** How long POST /calls/:id/cancel waits for the workflow to take the cancel before it answers. */
const TAKEN_WITHIN_MS = 5_000;
/** Signals sent at once by a bulk cancel. */
const PARALLEL_SIGNALS = 16;

const ended = (status: string) => `The call has ended already (${status}); there is nothing to cancel`;

/**
 * The API's cancels, through the one cancel (reason `requested`): a call waiting for a dial is cancelled at
 * once; one in an attempt is `cancelling` until the attempt ends. The candidate is free for a new call once
 * the call is cancelled.
 */
export function requestedCancels({ stores }: Pick<OperationDeps, 'stores'>, cancel: CancelCall) {
  /** POST /calls/:id/cancel: the call once its workflow has taken the cancel (or as it is after 5 s). */
  async function cancelRequested(workspace: Readonly<WorkspaceDoc>, callId: string): Promise<CallDoc> {
    const call = await stores.calls.owned(workspace._id, callId);
    if (!call) throw new NotFoundError('Call not found');
    if (FINAL_CALL_STATUSES.includes(call.status)) throw new ConflictError(ended(call.status));
    if (call.status === 'cancelling') return call;
    await cancel(call, 'requested', { until: 'taken', withinMs: TAKEN_WITHIN_MS });
    // As the workflow left it (its status is written before the workflow answers), or as it is after 5 s.
    const now = (await stores.calls.get(callId))!;
    // It ended on its own just before the cancel reached it.
    if (now.status === 'completed' || now.status === 'failed') throw new ConflictError(ended(now.status));
    return now;
  }

  /**
   * POST /calls/cancel: every unfinished call of the job, or of the candidates given. The calls are found in
   * the job's list (its entries carry each call's candidate and status), never by a scan of the calls.
   */
  async function cancelOfJob(workspace: Readonly<WorkspaceDoc>, req: CallCancelRequest): Promise<CallCancelResponse['data']> {
    const wanted = req.candidate_ids ? new Set(req.candidate_ids) : null;
    const seen = new Set<string>();
    const toCancel: string[] = [];
    let alreadyFinal = 0;
    for await (const entry of stores.calls.entriesOfJob(workspace._id, req.ats_job_id)) {
      const candidate = entry.fields.candidate_id;
      if (entry.gone || (wanted && !wanted.has(candidate))) continue;
      seen.add(candidate);
      if (FINAL_CALL_STATUSES.includes(entry.fields.status)) alreadyFinal++;
      else toCancel.push(entry.id);
    }
    let cancelled = 0;
    for (let i = 0; i < toCancel.length; i += PARALLEL_SIGNALS) {
      const signalled = await Promise.all(
        toCancel.slice(i, i + PARALLEL_SIGNALS).map(async (id) => {
          const call = await stores.calls.get(id);
          return !!call && !FINAL_CALL_STATUSES.includes(call.status) && (await cancel(call, 'requested')).sent;
        }),
      );
      cancelled += signalled.filter(Boolean).length;
      alreadyFinal += signalled.filter((t) => !t).length;
    }
    return {
      ats_job_id: req.ats_job_id,
      cancelled,
      already_final: alreadyFinal,
      unknown_candidate_ids: (req.candidate_ids ?? []).filter((c) => !seen.has(c)),
    };
  }

  return { cancelRequested, cancelOfJob };
}

export type RequestedCancels = ReturnType<typeof requestedCancels>;
