import type { Database } from '../infra/database';
import type { ErasureDoc } from '../infra/documents/erasures';
import { newId } from '../infra/ids';

/**
 * The erasures under way (the document: infra/documents/erasures.ts): opened by the request, read by the
 * workflow's step, and closed with the counts once the person is gone, when whom it named is blanked. Every
 * read and write is by exact `_id`.
 */
export function erasureStore(db: Database) {
  return {
    async open(workspaceId: string, target: NonNullable<ErasureDoc['target']>, now = new Date()): Promise<ErasureDoc> {
      const doc: ErasureDoc = {
        _id: newId('era'),
        workspace_id: workspaceId,
        target,
        status: 'running',
        counts: null,
        created_at: now,
        finished_at: null,
      };
      await db.erasures.insertOne(doc);
      return doc;
    },

    get: (id: string): Promise<ErasureDoc | null> => db.erasures.findOne({ _id: id }),

    /** The erasure ended: its counts kept, whom it named blanked. A second close changes nothing. */
    async close(id: string, counts: NonNullable<ErasureDoc['counts']>, now = new Date()): Promise<void> {
      await db.erasures.updateOne({ _id: id, status: 'running' }, { $set: { status: 'done', counts, target: null, finished_at: now } });
    },
  };
}

export type ErasureStore = ReturnType<typeof erasureStore>;
