import { attemptPath } from '../infra/documents/calls';
import { callReportId, reportedFields, type CallReportDoc } from '../infra/documents/call-reports';
import type { AttemptReport, ReportResult } from '../providers/voice/port';
import type { OperationDeps } from './deps';
import { callBacksRefused, erasedWritesRefused } from '../infra/metrics';
import type { ProviderCallRef } from '../shared/erasure/schema';
import { callBackResult } from '../shared/calls/call-backs';

/**
 * The intake of a provider's report of an attempt: the one path by which it reaches a call. Provider webhooks,
 * the lost-report check and the simulator all use it. The report is kept as it arrived (stores/call-reports.ts:
 * the first report of an attempt wins), then its result is signalled to the call's workflow, which takes the
 * first result per attempt and writes the kept report into the call in the write that ends the attempt. So the
 * provider's answer waits for one insert and one signal: the report is durable before it, and a signal that
 * fails fails the callback, which the provider sends again (the kept report stays, and is signalled again). A
 * report of a call whose workflow has ended (a late one) is written into the call here; one of a call or
 * attempt that does not exist is logged, and its kept copy removed.
 */
export function reportIntake({ stores, workflows, logger }: Pick<OperationDeps, 'stores' | 'workflows' | 'logger'>) {
  const log = logger.child({ component: 'call-reports' });
  /** False when the call's workflow is not running. The workflow takes the first result per attempt. */
  const signal = (report: AttemptReport) => workflows.attemptEnded(report);

  /** A report whose call's workflow has ended: written into the call now, as nothing else will. */
  async function writeLate(kept: CallReportDoc): Promise<ReportResult> {
    const ids = { callId: kept.call_id, attempt: kept.attempt };
    const call = await stores.calls.get(kept.call_id);
    if (call?.erased_at) {
      // A report after the erasure would bring the transcript and the recording back: acknowledged, not kept,
      // and the provider's copy deleted, whether or not the erasure knew of it (a call-back or a dial that
      // began while it ran).
      log.warn(ids, 'report of an erased call; not kept, its provider copy deleted');
      await stores.callReports.forget(kept);
      erasedWritesRefused.inc({ kind: 'report' });
      // The provider of the attempt the report names, else of the call's last one (the same deployment's).
      const provider = call.attempts[kept.attempt - 1]?.provider ?? call.attempts.at(-1)?.provider;
      if (kept.provider_call_id && provider) await workflows.deleteProviderCopies([{ provider, providerCallId: kept.provider_call_id }]);
      return 'erased';
    }
    if (!call || call.attempts[kept.attempt - 1]?.number !== kept.attempt) {
      log.warn(ids, 'report for an unknown call or attempt');
      await stores.callReports.forget(kept);
      return 'unknown';
    }
    const fields = reportedFields(call, kept);
    if (!fields) return 'duplicate';
    log.warn(ids, 'report arrived after its call ended; written into the call');
    await stores.calls.change(call, { set: fields.set });
    return 'recorded';
  }

  /**
   * A call-back's report as it counts (shared/calls/call-backs.ts): it completes the call only when the identity
   * tool confirmed the caller on that provider call and the screening happened (its extraction holds one of the
   * call's declared variables, or the provider's evaluation says so); else the attempt failed with
   * `call_back_incomplete`, and the call keeps waiting for its retry. A report of an inbound attempt never
   * confirmed is a stranger's, or a caller's who gave no name: whatever it carries, its transcript, recording and
   * extraction are kept nowhere, and the provider's copy is deleted (`forget`).
   */
  async function judged(report: AttemptReport): Promise<{ report: AttemptReport; forget: ProviderCallRef | null }> {
    if (report.direction !== 'inbound') return { report, forget: null };
    const [call, confirmed] = await Promise.all([
      stores.calls.get(report.callId),
      stores.callReports.identityConfirmed(report.callId, report.attempt, report.providerCallId),
    ]);
    if (!confirmed) {
      if (report.result === 'completed') callBacksRefused.inc({ reason: 'unconfirmed' });
      const provider = call?.attempts[report.attempt - 1]?.provider;
      return {
        report: { ...report, result: 'call_back_incomplete', transcript: undefined, recordingUrl: null, extracted: null, screened: false },
        forget: provider && report.providerCallId ? { provider, providerCallId: report.providerCallId } : null,
      };
    }
    const extracted = report.extracted && typeof report.extracted === 'object' ? (report.extracted as Record<string, unknown>) : null;
    return {
      report: { ...report, result: callBackResult(report.result, extracted, call?.extract_variables ?? [], report.screened, true) },
      forget: null,
    };
  }

  return {
    async take(given: AttemptReport): Promise<ReportResult> {
      const { report, forget } = await judged(given);
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
        received_at: new Date(),
      };
      const stored = await stores.callReports.keep(doc);
      // Unknown whether it was kept: the provider's callback fails, and its retry finds out.
      if (stored === 'error') throw new Error(`the report of ${doc._id} could not be stored`);
      // Before the answer: a failed start fails the callback, and the provider's retry deletes it then.
      if (forget) await workflows.deleteProviderCopies([forget]);
      // Kept before, but its signal may have failed (Temporal down) and the provider is sending it again.
      const first = stored === 'written';
      if (await signal(report)) return first ? 'recorded' : 'duplicate';
      const kept = first ? doc : await stores.callReports.get(report.callId, report.attempt);
      return kept ? writeLate(kept) : 'unknown';
    },

    /**
     * A provider's live status of an attempt (ringing, in-progress …), kept until its report arrives. A note,
     * not a change: the call's `updated_at` stays that of its last change, so the change feed keeps showing it
     * there. False for an unknown or finished attempt.
     */
    async providerStatus(ids: { callId: string; attempt: number }, status: string): Promise<boolean> {
      const call = await stores.calls.get(ids.callId);
      const attempt = call?.attempts[ids.attempt - 1];
      if (attempt?.number !== ids.attempt || attempt.reported_at) return false;
      await stores.calls.note(ids.callId, { [`${attemptPath(ids.attempt)}.provider_status`]: status });
      return true;
    },
  };
}

export type ReportIntake = ReturnType<typeof reportIntake>;
