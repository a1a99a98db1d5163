import type { Database } from '../infra/database';
import { callReportId, type CallReportDoc } from '../infra/documents/call-reports';
import type { WriteResult } from '../infra/duplicate-key';
import { groupedInserts } from '../infra/grouped-inserts';

/**
 * Providers' end-of-call reports as they arrived, one per attempt (infra/documents/call-reports.ts): the
 * first report of an attempt wins, by one insert of its own `_id`. Reports that arrive together (calls ending
 * together) are stored together: one command, not one each (infra/grouped-inserts.ts).
 */
export function callReportStore(db: Database) {
  const insert = groupedInserts(db.callReports);
  return {
    /** Keeps the report: `written`, `duplicate` when the attempt has one already, `error` when unknown. */
    keep: (report: CallReportDoc): Promise<WriteResult> => insert(report),
    get: (callId: string, attempt: number) => db.callReports.findOne({ _id: callReportId(callId, attempt) }),
    async forget(report: Pick<CallReportDoc, '_id'>): Promise<void> {
      await db.callReports.deleteOne({ _id: report._id });
    },
    /** Forgets the reports of the call's attempts (an erasure). */
    async forgetCall(callId: string, attempts: number): Promise<void> {
      await Promise.all(Array.from({ length: attempts }, (_, n) => db.callReports.deleteOne({ _id: callReportId(callId, n + 1) })));
    },
  };
}

export type CallReportStore = ReturnType<typeof callReportStore>;
