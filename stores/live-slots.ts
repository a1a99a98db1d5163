import type { Database } from '../infra/database';
import { claim, release } from '../infra/claims';

/**
 * A workspace's live-conversation slots (its `live_conversations_at_once`), across every API process: slot i
 * is the claim `live-slot/<workspace>/<i>` (infra/claims.ts), held by an interview while its conversation runs
 * and renewed meanwhile, so a process that dies frees its slots when their lease runs out. The same interview
 * taking a slot again (a reconnect, another tab) gets the one it holds. Every read and write is by exact `_id`.
 */
export const LIVE_SLOT_LEASE_MS = 3 * 60_000;
const slotKey = (workspaceId: string, index: number) => `live-slot/${workspaceId}/${index}`;

export function liveSlotStore(db: Database) {
  return {
    /** A slot for the interview, or null when all `cap` are held by others. */
    async take(workspaceId: string, interviewId: string, cap: number, now = new Date()): Promise<string | null> {
      const expiresAt = new Date(now.getTime() + LIVE_SLOT_LEASE_MS);
      for (let i = 0; i < cap; i++) {
        const key = slotKey(workspaceId, i);
        if ((await claim(db, key, interviewId, { now, expiresAt })) === interviewId) {
          await db.claims.updateOne({ _id: key }, { $set: { expires_at: expiresAt } });
          return key;
        }
      }
      return null;
    },
    /** Extends the interview's hold on its slot; only its holder writes it. */
    async renew(key: string, interviewId: string, now = new Date()): Promise<void> {
      const current = await db.claims.findOne({ _id: key });
      if (current?.holder === interviewId)
        await db.claims.updateOne({ _id: key }, { $set: { expires_at: new Date(now.getTime() + LIVE_SLOT_LEASE_MS) } });
    },
    give: (key: string, interviewId: string) => release(db, key, interviewId),
  };
}

export type LiveSlotStore = ReturnType<typeof liveSlotStore>;
