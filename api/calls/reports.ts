import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Database } from '../../infra/database';
import { attemptPath } from '../../infra/records/calls';
import { callStore } from '../../stores/calls';
import { callReportId, reportedFields, type CallReportDoc } from '../../infra/records/call-reports';
import { groupedInserts } from '../../infra/grouped-inserts';
import { whileReachable } from '../../infra/temporal';
import type { Logger } from '../../infra/logger';
import type { AttemptReport, ReportResult } from '../../providers/voice/port';
import { attemptResultSignal, callWorkflowId } from '../../workflows/calls';

/**
 * The one path by which a provider's report of an attempt reaches a call; provider webhooks, the lost-report
 * check and the simulator all use it. The report is stored as it arrived, by one insert of its own `_id`
 * (infra/records/call-reports.ts: the first report of an attempt wins), then its result is signalled to the
 * call's workflow, which takes the first result per attempt and writes the stored report into the call in the
 * write that ends the attempt. So the provider's answer waits for one insert and one signal: the report is
 * durable before it, and a signal that fails fails the callback, which the provider sends again (the stored
 * report stays, and is signalled again). A report of a call whose workflow has ended (a late one) is written
 * into the call here; one of a call or attempt that does not exist is logged, and its stored copy removed.
 */
export function createCallReporter(deps: { db: Database; client: Client; logger: Logger; clock?: () => Date }) {
  const clock = deps.clock ?? (() => new Date());
  // Reports that arrive together (calls ending together) are stored together: one command, not one each.
  const store = groupedInserts(deps.db.callReports);
  /** False when the call's workflow is not running. The workflow takes the first result per attempt. */
  const signal = async (report: AttemptReport): Promise<boolean> => {
    try {
      await whileReachable(deps.client, () =>
        deps.client.workflow
          .getHandle(callWorkflowId(report.callId))
          .signal(attemptResultSignal, { attempt: report.attempt, result: report.result }),
      );
      return true;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      return false;
    }
  };

  /** A report whose call's workflow has ended: written into the call now, as nothing else will. */
  async function writeLate(stored: CallReportDoc): Promise<ReportResult> {
    const { db, logger } = deps;
    const ids = { callId: stored.call_id, attempt: stored.attempt };
    const call = await db.calls.findOne({ _id: stored.call_id });
    if (!call || call.attempts[stored.attempt - 1]?.number !== stored.attempt) {
      logger.warn(ids, 'report for an unknown call or attempt');
      await db.callReports.deleteOne({ _id: stored._id });
      return 'unknown';
    }
    const fields = reportedFields(call, stored);
    if (!fields) return 'duplicate';
    logger.warn(ids, 'report arrived after its call ended; written into the call');
    await callStore({ db }).change(call, { set: fields.set });
    return 'recorded';
  }

  return async (report: AttemptReport): Promise<ReportResult> => {
    const doc: CallReportDoc = {
      _id: callReportId(report.callId, report.attempt),
      call_id: report.callId,
      attempt: report.attempt,
      result: report.result,
      provider_call_id: report.providerCallId ?? null,
      ended_reason: report.endedReason ?? null,
      recording_url: report.recordingUrl ?? null,
      transcript: report.transcript ?? null,
      extracted_json: JSON.stringify(report.extracted ?? null),
      received_at: clock(),
    };
    const stored = await store(doc);
    // Unknown whether it was stored: the provider's callback fails, and its retry finds out.
    if (stored === 'error') throw new Error(`the report of ${doc._id} could not be stored`);
    // Stored before, but its signal may have failed (Temporal down) and the provider is sending it again.
    const first = stored === 'written';
    if (await signal(report)) return first ? 'recorded' : 'duplicate';
    const kept = first ? doc : await deps.db.callReports.findOne({ _id: doc._id });
    return kept ? writeLate(kept) : 'unknown';
  };
}

/**
 * A provider's live status of an attempt (ringing, in-progress …), kept until its report arrives. A note, not
 * a change: the call's `updated_at` stays that of its last change, so the change feed keeps showing it there.
 */
export async function recordProviderStatus(db: Database, ids: { callId: string; attempt: number }, status: string): Promise<boolean> {
  const call = await db.calls.findOne({ _id: ids.callId });
  const attempt = call?.attempts[ids.attempt - 1];
  if (attempt?.number !== ids.attempt || attempt.reported_at) return false;
  await callStore({ db }).note(ids.callId, { [`${attemptPath(ids.attempt)}.provider_status`]: status });
  return true;
}
