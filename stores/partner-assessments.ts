import { createHash } from 'node:crypto';
import type { Database } from '../infra/database';
import { isDuplicateKey } from '../infra/duplicate-key';
import type { PartnerAssessmentDoc } from '../infra/documents/partners';
import type { PartnerAts } from '../shared/partners/schema';

/**
 * The orders the ATSs sent (`partner_assessments`), one per (workspace, ATS, the ATS's own name for the order):
 * its `_id` derives from them, so the same order sent twice is one, found by one exact `_id` read, and the id is
 * what the ATS is answered (Greenhouse's `partner_interview_id`, Ashby's `assessment_id`). Claimed by an insert
 * before anything is started, so two sends at once start one interview or call.
 */
export const partnerAssessmentId = (workspaceId: string, ats: PartnerAts, orderKey: string) =>
  `pas_${createHash('sha256').update(`${workspaceId}\n${ats}\n${orderKey}`).digest('hex').slice(0, 32)}`;

export function partnerAssessmentStore(db: Database) {
  return {
    get: (id: string) => db.partnerAssessments.findOne({ _id: id }),

    /** Claims the order: true when this insert made it, false when it was there (a repeat, or one at the same moment). */
    async claim(doc: PartnerAssessmentDoc): Promise<boolean> {
      try {
        await db.partnerAssessments.insertOne(doc);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },

    /** The order is started: what runs it. */
    async started(id: string, resource: NonNullable<PartnerAssessmentDoc['resource']>): Promise<void> {
      await db.partnerAssessments.updateOne({ _id: id }, { $set: { resource } });
    },

    /** An order whose start failed goes, so the ATS's retry starts afresh. */
    async forget(id: string): Promise<void> {
      await db.partnerAssessments.deleteOne({ _id: id });
    },

    /** Where the order's result is reported, as the ATS's latest send of it says (a Greenhouse resend's new URL). */
    async reportTo(id: string, callbackUrl: string, sealedAuth: string | null): Promise<void> {
      await db.partnerAssessments.updateOne(
        { _id: id },
        { $set: { 'order.callback_url': callbackUrl, 'order.callback_auth': sealedAuth } },
      );
    },

    async cancelled(id: string, at = new Date()): Promise<void> {
      await db.partnerAssessments.updateOne({ _id: id }, { $set: { cancelled_at: at } });
    },

    /** The ATS was told of result `version` (only its push workflow writes it, one push at a time). */
    async pushed(id: string, version: number, at = new Date()): Promise<void> {
      await db.partnerAssessments.updateOne({ _id: id }, { $set: { pushed_version: version, pushed_at: at } });
    },
  };
}

export type PartnerAssessmentStore = ReturnType<typeof partnerAssessmentStore>;
