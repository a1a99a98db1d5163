import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Database } from '../../infra/database';
import { attemptPath } from '../../infra/records/calls';
import { callList } from '../../infra/lists/calls';
import { whileReachable } from '../../infra/temporal';
import type { Logger } from '../../infra/logger';
import type { AttemptReport, ReportResult } from '../../providers/voice/port';
import { coerceExtracted } from '../../shared/calls/extracted-values';
import { callOutcomeSignal, callWorkflowId } from '../../workflows/calls';

const at = attemptPath;

/**
 * The one path by which a provider's report of an attempt reaches a call: the attempt's details, transcript
 * and extracted variables (checked against extract_variables) are stored, then the outcome is signalled to the
 * call's workflow, whose first report per attempt wins. Provider webhooks, the lost-report check and the
 * simulator all use it. A second report of an attempt stores nothing; while the attempt is undecided it is
 * signalled again, so a report whose first signal failed (Temporal down) arrives when the provider sends it
 * again. A report for an unknown call is logged.
 * One read and one write, both by exact `_id` (any other filter scans every call on FerretDB), then one signal.
 * Two different reports of one attempt racing each other may both pass the check; the workflow still takes
 * the first outcome signalled, and the stored details are those of the later write. On MongoDB alone, a
 * filter `{_id, 'attempts.N.reported_at': null}` would make the first write win too; FerretDB would scan every
 * call for it, and does not isolate it anyway.
 */
export function createCallReporter(deps: { db: Database; client: Client; logger: Logger }) {
  /** The workflow takes the first outcome per attempt, so signalling one again is harmless. */
  const signal = async (report: AttemptReport) => {
    try {
      await whileReachable(deps.client, () =>
        deps.client.workflow
          .getHandle(callWorkflowId(report.callId))
          .signal(callOutcomeSignal, { attempt: report.attempt, outcome: report.outcome }),
      );
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      deps.logger.warn({ callId: report.callId, attempt: report.attempt }, 'outcome reported for a call that is not running');
    }
  };
  return async (report: AttemptReport): Promise<ReportResult> => {
    const { db, logger } = deps;
    const call = await db.calls.findOne({ _id: report.callId });
    const attempt = call?.attempts.find((a) => a.number === report.attempt);
    if (!call || !attempt) {
      logger.warn({ callId: report.callId, attempt: report.attempt }, 'report for an unknown call or attempt');
      return 'unknown';
    }
    if (attempt.reported_at) {
      // Stored before, but its signal may have failed (Temporal down) and the provider is sending it again.
      if (attempt.outcome === null) await signal(report);
      return 'duplicate';
    }
    const a = at(report.attempt);
    // The call's transcript and variables come from the attempt that completed it, while it is undecided.
    const completes = report.outcome === 'completed' && attempt.outcome === null;
    const extraction = completes ? coerceExtracted(call.extract_variables, report.extracted) : null;
    if (extraction && extraction.notes.length > 0) {
      logger.warn({ callId: call._id, attempt: report.attempt, notes: extraction.notes }, 'extracted values dropped');
    }
    await callList(db).update(call, {}, (now) => ({
      $set: {
        [`${a}.reported_at`]: now,
        [`${a}.ended_reason`]: report.endedReason ?? null,
        [`${a}.recording_url`]: report.recordingUrl ?? null,
        [`${a}.provider_status`]: 'ended',
        ...(report.providerCallId && !attempt.provider_call_id ? { [`${a}.provider_call_id`]: report.providerCallId } : {}),
        ...(extraction
          ? { transcript: report.transcript ?? [], extracted_variables: extraction.values, extraction_notes: extraction.notes }
          : {}),
        updated_at: now,
      },
    }));
    // A failed signal fails the callback (the provider retries) or the activity (Temporal retries).
    await signal(report);
    return 'recorded';
  };
}

/** A provider's live status of an attempt (ringing, in-progress …), kept until its report arrives. */
export async function recordProviderStatus(db: Database, ids: { callId: string; attempt: number }, status: string): Promise<boolean> {
  const call = await db.calls.findOne({ _id: ids.callId });
  const attempt = call?.attempts[ids.attempt - 1];
  if (attempt?.number !== ids.attempt || attempt.reported_at) return false;
  await callList(db).touch(ids.callId, { $set: { [`${at(ids.attempt)}.provider_status`]: status, updated_at: new Date() } });
  return true;
}
