import type { ApiDeps } from '../deps';
import type { CallDoc } from '../../infra/documents/calls';
import type { WorkspaceDoc } from '../../infra/documents/workspaces';
import { orNotFound } from '../owned';
import { ConflictError } from '../../shared/errors';
import { FINAL_CALL_STATUSES, type CallCancelRequest, type CallCancelResponse } from '../../shared/calls/schema';

/**
 * The API's cancels, through the one cancel of a call (operations/call-cancel.ts, reason `requested`): a call
 * waiting for a dial is cancelled at once; one in an attempt is `cancelling` until the attempt ends. The
 * candidate is free for a new call once the call is cancelled.
 */

type CancelDeps = Pick<ApiDeps, 'stores' | 'operations'>;

/** How long POST /calls/:id/cancel waits for the workflow to take the cancel before it answers. */
const TAKEN_WITHIN_MS = 5_000;
/** Signals sent at once by a bulk cancel. */
const PARALLEL_SIGNALS = 16;

const ended = (status: string) => `The call has ended already (${status}); there is nothing to cancel`;

/** POST /calls/:id/cancel: the call once its workflow has taken the cancel (or as it is after 5 s). */
export async function cancelCall({ stores, operations }: CancelDeps, workspace: Readonly<WorkspaceDoc>, callId: string): Promise<CallDoc> {
  const call = await orNotFound(stores.calls.owned(workspace._id, callId), 'Call not found');
  if (FINAL_CALL_STATUSES.includes(call.status)) throw new ConflictError(ended(call.status));
  if (call.status === 'cancelling') return call;
  await operations.cancelCall(call, 'requested', { until: 'taken', withinMs: TAKEN_WITHIN_MS });
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
export async function cancelCalls(
  { stores, operations }: CancelDeps,
  workspace: Readonly<WorkspaceDoc>,
  req: CallCancelRequest,
): Promise<CallCancelResponse['data']> {
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
        return !!call && !FINAL_CALL_STATUSES.includes(call.status) && (await operations.cancelCall(call, 'requested')).sent;
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
