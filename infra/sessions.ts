import { createHash } from 'node:crypto';
import type { Database } from './database';
import { newToken } from './ids';
import type { SessionDoc } from './records/sessions';

/**
 * Dashboard sessions (the document: infra/records/sessions.ts). The token's hash as the `_id` makes a session
 * one exact `_id` read, and a copy of the database holds no usable token.
 */
export const SESSION_HOURS = 12;

const idOf = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(db: Database, workspaceId: string, now: Date): Promise<{ token: string; session: SessionDoc }> {
  const token = newToken(32);
  const session: SessionDoc = {
    _id: idOf(token),
    workspace_id: workspaceId,
    csrf: newToken(32),
    created_at: now,
    expires_at: new Date(now.getTime() + SESSION_HOURS * 3_600_000),
  };
  await db.sessions.insertOne(session);
  return { token, session };
}

/** The live session of a cookie's token, or null; an expired one is removed on the way. */
export async function sessionOf(db: Database, token: string | undefined, now: Date): Promise<SessionDoc | null> {
  if (!token || token.length > 100) return null;
  const session = await db.sessions.findOne({ _id: idOf(token) });
  if (!session) return null;
  if (session.expires_at <= now) {
    await db.sessions.deleteOne({ _id: session._id });
    return null;
  }
  return session;
}

export async function endSession(db: Database, session: SessionDoc): Promise<void> {
  await db.sessions.deleteOne({ _id: session._id });
}
