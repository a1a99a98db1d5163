import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { ApiDeps } from '../deps';
import { callPages } from '../../stores/calls';
import type { CallDoc } from '../../infra/records/calls';
import type { WorkspaceDoc } from '../../infra/records/workspaces';
import { startOptions, whileReachable } from '../../infra/temporal';
import { findOwned } from '../owned';
import { ConflictError } from '../../shared/errors';
import { FINAL_CALL_STATUSES, type CallCancelRequest, type CallCancelResponse } from '../../shared/calls/schema';
import { cancelCallSignal } from '../../workflows/calls';
import { callStart } from '../../workflows/call-start';

/**
 * Cancelling calls. The call's workflow makes the change (it owns the call's status, and announces it): this
 * tells it, and the signal is durable once sent. A call waiting for a dial is cancelled at once; one in an
 * attempt is `cancelling` until the attempt ends, then cancelled without a retry (or completed, when the
 * candidate was reached). The candidate is free for a new call once the call is cancelled.
 */

/** How long POST /calls/:id/cancel waits for the workflow to take the cancel before it answers. */
const TAKEN_WITHIN_MS = 5_000;
/** Signals sent at once by a bulk cancel. */
const PARALLEL_SIGNALS = 16;

/**
 * Tells the call's workflow, starting it with the cancel when call/initiate's fan-out has not started it yet
 * (it then ends cancelled at its first step, and the fan-out finds it there). True when it was told; false
 * when it has ended: a closed workflow is never started again for a cancel.
 */
async function tell(deps: ApiDeps, call: CallDoc): Promise<boolean> {
  const start = callStart(call);
  try {
    await whileReachable(deps.temporal, () =>
      deps.temporal.workflow.signalWithStart(start.workflowType, {
        ...startOptions(start, deps.config.TEMPORAL_TASK_QUEUE),
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        signal: cancelCallSignal,
        signalArgs: [],
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

/** POST /calls/:id/cancel: the call once its workflow has taken the cancel (or as it is after 5 s). */
export async function cancelCall(deps: ApiDeps, workspace: WorkspaceDoc, callId: string): Promise<CallDoc> {
  const { db } = deps;
  const call = await findOwned(db.calls, callId, workspace._id, 'Call not found');
  const final = (c: CallDoc) => FINAL_CALL_STATUSES.includes(c.status);
  if (final(call)) throw new ConflictError(`The call has ended already (${call.status}); there is nothing to cancel`);
  if (call.status === 'cancelling') return call;
  const told = await tell(deps, call);
  const deadline = Date.now() + TAKEN_WITHIN_MS;
  for (;;) {
    const now = (await db.calls.findOne({ _id: callId }))!;
    // It ended on its own just before the cancel reached it.
    if (now.status === 'completed' || now.status === 'failed') {
      throw new ConflictError(`The call has ended already (${now.status}); there is nothing to cancel`);
    }
    if (now.status === 'cancelled' || now.status === 'cancelling' || !told || Date.now() > deadline) return now;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * POST /calls/cancel: every unfinished call of the job, or of the candidates given. The calls are found in
 * the job's list (its entries carry each call's candidate and status), never by a scan of the calls.
 */
export async function cancelCalls(deps: ApiDeps, workspace: WorkspaceDoc, req: CallCancelRequest): Promise<CallCancelResponse['data']> {
  const wanted = req.candidate_ids ? new Set(req.candidate_ids) : null;
  const seen = new Set<string>();
  const toCancel: string[] = [];
  let alreadyFinal = 0;
  for await (const entry of callPages(deps.db).entriesOfJob(workspace._id, req.ats_job_id)) {
    const candidate = entry.fields.candidate_id;
    if (entry.gone || (wanted && !wanted.has(candidate))) continue;
    seen.add(candidate);
    if (FINAL_CALL_STATUSES.includes(entry.fields.status)) alreadyFinal++;
    else toCancel.push(entry.id);
  }
  let cancelled = 0;
  for (let i = 0; i < toCancel.length; i += PARALLEL_SIGNALS) {
    const told = await Promise.all(
      toCancel.slice(i, i + PARALLEL_SIGNALS).map(async (id) => {
        const call = await deps.db.calls.findOne({ _id: id });
        return !!call && !FINAL_CALL_STATUSES.includes(call.status) && (await tell(deps, call));
      }),
    );
    cancelled += told.filter(Boolean).length;
    alreadyFinal += told.filter((t) => !t).length;
  }
  return {
    ats_job_id: req.ats_job_id,
    cancelled,
    already_final: alreadyFinal,
    unknown_candidate_ids: (req.candidate_ids ?? []).filter((c) => !seen.has(c)),
  };
}
