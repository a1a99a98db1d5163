import type { Database } from '../infra/database';
import { callReportId, type CallReportDoc } from '../infra/documents/call-reports';
import type { WriteResult } from '../infra/duplicate-key';
import { groupedInserts } from '../infra/grouped-inserts';
import { claim, claimOf } from '../infra/claims';
import { IDENTITY_TRIES } from '../shared/calls/call-backs';

/** The claim saying which provider call confirmed an inbound attempt's caller (its holder). */
const identityKey = (callId: string, attempt: number) => `call-back-identity/${callId}/${attempt}`;
/** One of an inbound call's IDENTITY_TRIES names, held by the tool call that used it. */
const tryKey = (providerCallId: string, n: number) => `call-back-try/${providerCallId}/${n}`;
/** How long an inbound call's tries are kept: far past the longest call, during which they are taken. */
export const IDENTITY_TRY_LIFETIME_MS = 86_400_000;
/** How long the identity of an inbound attempt is kept: far past its report, which reads it, and the report's lookups. */
export const IDENTITY_LIFETIME_MS = 2 * 86_400_000;

/**
 * Providers' end-of-call reports as they arrived, one per attempt (infra/documents/call-reports.ts): the
 * first report of an attempt wins, by one insert of its own `_id`. Reports that arrive together (calls ending
 * together) are stored together: one command, not one each (infra/grouped-inserts.ts).
 *
 * Beside them, what decides whether a call-back's report may count at all: which inbound attempt the identity
 * tool confirmed, on which provider call, and the names each inbound call's gate has judged. Both are claims
 * (infra/claims.ts): an insert of a unique `_id` decides, so two tool calls at once cannot both take the last
 * try, on FerretDB as on MongoDB. They hold ids only, nothing of the person.
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
    /**
     * Takes one of the inbound call's IDENTITY_TRIES for the tool call `toolCallId`: true when it holds one (a
     * repeat of the same tool call holds the one it took), false when the call has judged its names already.
     */
    async takeIdentityTry(providerCallId: string, toolCallId: string, now = new Date()): Promise<boolean> {
      const expiresAt = new Date(now.getTime() + IDENTITY_TRY_LIFETIME_MS);
      for (let n = 1; n <= IDENTITY_TRIES; n++) {
        if ((await claim(db, tryKey(providerCallId, n), toolCallId, { now, expiresAt })) === toolCallId) return true;
      }
      return false;
    },
    /** Records that the caller of `providerCallId` was confirmed as the candidate of the call's inbound attempt. */
    async confirmIdentity(callId: string, attempt: number, providerCallId: string, now = new Date()): Promise<boolean> {
      const expiresAt = new Date(now.getTime() + IDENTITY_LIFETIME_MS);
      return (await claim(db, identityKey(callId, attempt), providerCallId, { now, expiresAt })) === providerCallId;
    },
    /** Whether the identity tool confirmed the caller of this inbound attempt, on this provider call (a lapsed claim still says so). */
    async identityConfirmed(callId: string, attempt: number, providerCallId: string | undefined): Promise<boolean> {
      if (!providerCallId) return false;
      return (await claimOf(db, identityKey(callId, attempt)))?.holder === providerCallId;
    },
    /** Forgets the reports of the call's attempts (an erasure). */
    async forgetCall(callId: string, attempts: number): Promise<void> {
      // From 0: the candidate's written answers on their link are kept as attempt 0's report.
      await Promise.all(Array.from({ length: attempts + 1 }, (_, n) => db.callReports.deleteOne({ _id: callReportId(callId, n) })));
    },
  };
}

export type CallReportStore = ReturnType<typeof callReportStore>;
