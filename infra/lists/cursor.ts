import { createHmac } from 'node:crypto';
import { safeEqual } from '../safe-equal';
import type { Position } from './time-index';

/**
 * Opaque, tamper-proof list cursors: the place a page ended, bound to the workspace, the list and the query
 * that produced it, and signed with a key the processes share (`key`: stores/signed-tokens.ts reads it). A cursor
 * that was altered, or belongs to another workspace, list or query, fails verification.
 */
export interface CursorState {
  /** The workspace, list and query the cursor belongs to, as one string. */
  scope: string;
  position: Position;
}

const mac = (key: Buffer, scope: string, body: string) => createHmac('sha256', key).update(`${scope}\n${body}`).digest().subarray(0, 16);

export async function encodeCursor(key: Buffer, state: CursorState): Promise<string> {
  const body = Buffer.from(JSON.stringify([state.position.at, state.position.id])).toString('base64url');
  return `${body}.${mac(key, state.scope, body).toString('base64url')}`;
}

/** The position in `cursor`, or null when it is not one this service signed for `scope`. */
export async function decodeCursor(key: Buffer, scope: string, cursor: string): Promise<Position | null> {
  const [body, sig, extra] = cursor.split('.');
  if (!body || !sig || extra !== undefined) return null;
  // Compared as written (infra/safe-equal.ts): a decoded comparison would take some altered signatures.
  if (!safeEqual(sig, mac(key, scope, body).toString('base64url'))) return null;
  try {
    const [at, id] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[];
    return typeof at === 'number' && Number.isFinite(at) && typeof id === 'string' ? { at, id } : null;
  } catch {
    return null;
  }
}
