import { createHash } from 'node:crypto';
import type { Database } from './database';
import { newToken } from './ids';
import type { SessionDoc } from './records/sessions';

/**
 * Dashboard sessions (the document: infra/records/sessions.ts). The token's hash as the `_id` makes a session
 * one exact `_id` read, and a copy of the database holds no usable token. A session ends at the first of:
 * sign-out, a new sign-in in its browser, its key's revocation, SESSION_HOURS after it began, or
 * `idleMinutes` without a request.
 */
export const SESSION_HOURS = 12;
/** How stale `last_seen_at` may be before a request writes it again: a page view is not a write each time. */
const SEEN_EVERY_MS = 60_000;

const idOf = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(
  db: Database,
  opened: { workspaceId: string; keyId: string },
  now: Date,
): Promise<{ token: string; session: SessionDoc }> {
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
}

/**
 * The live session of a cookie's token, or null. One that has ended (expired, idle, its key revoked, or from
 * before sessions knew their key) is removed on the way.
 */
export async function sessionOf(db: Database, token: string | undefined, now: Date, idleMinutes: number): Promise<SessionDoc | null> {
  if (!token || token.length > 100) return null;
  const session = await db.sessions.findOne({ _id: idOf(token) });
  if (!session) return null;
  const idleSince = session.last_seen_at ?? session.created_at;
  const key = session.key_id ? await db.apiKeys.findOne({ _id: session.key_id }) : null;
  if (session.expires_at <= now || idleSince.getTime() + idleMinutes * 60_000 <= now.getTime() || !key || key.revoked_at) {
    await db.sessions.deleteOne({ _id: session._id });
    return null;
  }
  if (now.getTime() - idleSince.getTime() >= SEEN_EVERY_MS) {
    await db.sessions.updateOne({ _id: session._id }, { $set: { last_seen_at: now } });
  }
  return session;
}

export async function endSession(db: Database, session: Pick<SessionDoc, '_id'>): Promise<void> {
  await db.sessions.deleteOne({ _id: session._id });
}

/** Ends the session of a cookie's token, if it names one (a new sign-in replaces its browser's session). */
export async function endSessionOf(db: Database, token: string | undefined): Promise<void> {
  if (token && token.length <= 100) await endSession(db, { _id: idOf(token) });
}

/** Ends every session a key opened: revoking a key signs its dashboards out. */
export async function endSessionsOfKey(db: Database, keyId: string): Promise<number> {
  return (await db.sessions.deleteMany({ key_id: keyId })).deletedCount;
}
