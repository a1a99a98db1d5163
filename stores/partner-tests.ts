import type { Database } from '../infra/database';
import { newId } from '../infra/ids';
import type { PartnerTestDoc } from '../infra/documents/partners';
import type { PartnerTestCreate, PartnerTestPatch } from '../shared/partners/schema';

/**
 * A workspace's tests (`partner_tests`): the named templates of what an ATS may send a candidate to, listed by
 * the ATS doors. A deleted test is no longer listed or sent, and stays for the orders already sent to it.
 */
export function partnerTestStore(db: Database) {
  return {
    async create(workspaceId: string, body: PartnerTestCreate, now = new Date()): Promise<PartnerTestDoc> {
      const doc: PartnerTestDoc = {
        _id: newId('ptest'),
        workspace_id: workspaceId,
        name: body.name,
        description: body.description ?? null,
        kind: body.kind,
        interview: body.interview ?? null,
        phone_screen: body.phone_screen ?? null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      };
      await db.partnerTests.insertOne(doc);
      return doc;
    },

    /** The workspace's test, deleted or not; null when it is another's or none. */
    async owned(workspaceId: string, id: string): Promise<PartnerTestDoc | null> {
      const doc = await db.partnerTests.findOne({ _id: id });
      return doc?.workspace_id === workspaceId ? doc : null;
    },

    /** The workspace's tests not deleted, oldest first. */
    list: (workspaceId: string) => db.partnerTests.find({ workspace_id: workspaceId, deleted_at: null }).sort({ created_at: 1 }).toArray(),

    async update(doc: PartnerTestDoc, patch: PartnerTestPatch, now = new Date()): Promise<PartnerTestDoc> {
      const $set = { ...patch, updated_at: now };
      await db.partnerTests.updateOne({ _id: doc._id }, { $set });
      return { ...doc, ...$set } as PartnerTestDoc;
    },

    async remove(doc: PartnerTestDoc, now = new Date()): Promise<void> {
      await db.partnerTests.updateOne({ _id: doc._id }, { $set: { deleted_at: now, updated_at: now } });
    },
  };
}

export type PartnerTestStore = ReturnType<typeof partnerTestStore>;
