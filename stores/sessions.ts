import { createHash } from 'node:crypto';
import type { Database } from '../infra/database';
import { newToken } from '../infra/ids';
import type { SessionDoc } from '../infra/documents/sessions';

/**
 * Dashboard sessions (the document: infra/documents/sessions.ts). The token's hash as the `_id` makes a
 * session one exact `_id` read, and a copy of the database holds no usable token. A session ends at the first
 * of: sign-out, a new sign-in in its browser, its key's revocation, SESSION_HOURS after it began, or
 * `idleMinutes` without a request.
 */
export const SESSION_HOURS = 12;
/** How stale `last_seen_at` may be before a request writes it again: a page view is not a write each time. */
const SEEN_EVERY_MS = 60_000;

const idOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** `keyIsLive`: whether the API key that opened a session is there and not revoked (stores/workspaces.ts). */
export function sessionStore(db: Database, { keyIsLive }: { keyIsLive(keyId: string): Promise<boolean> }) {
  const end = async (session: Pick<SessionDoc, '_id'>) => {
    await db.sessions.deleteOne({ _id: session._id });
  };
  return {
    async open(opened: { workspaceId: string; keyId: string }, now: Date): Promise<{ token: string; session: SessionDoc }> {
      const token = newToken(32);
      const session: SessionDoc = {
        _id: idOf(token),
        workspace_id: opened.workspaceId,
        key_id: opened.keyId,
        csrf: newToken(32),
        created_at: now,
        last_seen_at: now,
        expires_at: new Date(now.getTime() + SESSION_HOURS * 3_600_000),
      };
      await db.sessions.insertOne(session);
      return { token, session };
    },

    /**
     * The live session of a cookie's token, or null. One that has ended (expired, idle, its key revoked, or from
     * before sessions knew their key) is removed on the way.
     */
    async of(token: string | undefined, now: Date, idleMinutes: number): Promise<SessionDoc | null> {
      if (!token || token.length > 100) return null;
      const session = await db.sessions.findOne({ _id: idOf(token) });
      if (!session) return null;
      const idleSince = session.last_seen_at ?? session.created_at;
      const live = !!session.key_id && (await keyIsLive(session.key_id));
      if (session.expires_at <= now || idleSince.getTime() + idleMinutes * 60_000 <= now.getTime() || !live) {
        await end(session);
        return null;
      }
      if (now.getTime() - idleSince.getTime() >= SEEN_EVERY_MS) {
        await db.sessions.updateOne({ _id: session._id }, { $set: { last_seen_at: now } });
      }
      return session;
    },

    end,

    /** Ends the session of a cookie's token, if it names one (a new sign-in replaces its browser's session). */
    async endOf(token: string | undefined): Promise<void> {
      if (token && token.length <= 100) await end({ _id: idOf(token) });
    },

    /** Ends every session a key opened: revoking a key signs its dashboards out. */
    async endAllOfKey(keyId: string): Promise<number> {
      return (await db.sessions.deleteMany({ key_id: keyId })).deletedCount;
    },

    /** Removes sessions past their end (MongoDB's TTL index does it on its own; FerretDB 1.x has none). */
    async purgeExpired(now: Date): Promise<number> {
      return (await db.sessions.deleteMany({ expires_at: { $lte: now } })).deletedCount;
    },
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
