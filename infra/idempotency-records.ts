import { createHash } from 'node:crypto';
import type { Database } from './database';
import { claim, release } from './claims';
import { keyedId, newId } from './ids';
import type { IdempotencyDoc } from './records/idempotency';

/**
 * Idempotency keys (the IETF httpapi draft "The Idempotency-Key HTTP Header Field"): the first request with
 * a key runs, and its response is kept for KEPT_HOURS; a retry with the same key and the same request gets
 * that response again. While the first runs, it holds a claim on the key (infra/claims.ts: exclusive on
 * FerretDB too), so a twin sent meanwhile, by any API process, is told so instead of running twice.
 */

export const KEPT_HOURS = 24;
/** How long a request may hold its key: a process that died holding it frees it after this long. */
const LEASE_MS = 5 * 60_000;

export type Begun =
  | { kind: 'run'; finish(response: { status: number; contentType: string; body: string }): Promise<void>; abandon(): Promise<void> }
  | { kind: 'replay'; stored: IdempotencyDoc }
  | { kind: 'reused' }
  | { kind: 'in_flight' };

export function fingerprintOf(method: string, path: string, body: string): string {
  return createHash('sha256').update(`${method}\n${path}\n${body}`).digest('hex');
}

export async function beginIdempotent(
  db: Database,
  workspaceId: string,
  key: string,
  fingerprint: string,
  now = new Date(),
): Promise<Begun> {
  const id = keyedId('idem', workspaceId, key);
  const kept = async (): Promise<Begun | null> => {
    const stored = await db.idempotencyKeys.findOne({ _id: id });
    if (!stored || stored.expires_at <= now) return null;
    return stored.fingerprint === fingerprint ? { kind: 'replay', stored } : { kind: 'reused' };
  };
  const earlier = await kept();
  if (earlier) return earlier;
  // The holder names the request it stands for, so a twin can tell "still running" from "another request".
  const holder = `${newId('req')}|${fingerprint}`;
  const lock = `idempotency/${id}`;
  const owner = await claim(db, lock, holder, { now, expiresAt: new Date(now.getTime() + LEASE_MS) });
  if (owner !== holder) return owner.endsWith(`|${fingerprint}`) ? { kind: 'in_flight' } : { kind: 'reused' };
  // The twin that held the key may have finished between the first read and the claim.
  const finished = await kept();
  if (finished) {
    await release(db, lock, holder);
    return finished;
  }
  return {
    kind: 'run',
    async finish({ status, contentType, body }) {
      const at = new Date();
      const doc: IdempotencyDoc = {
        _id: id,
        workspace_id: workspaceId,
        fingerprint,
        status,
        content_type: contentType,
        body,
        created_at: at,
        expires_at: new Date(at.getTime() + KEPT_HOURS * 3_600_000),
      };
      await db.idempotencyKeys.replaceOne({ _id: id }, doc, { upsert: true });
      await release(db, lock, holder);
    },
    abandon: () => release(db, lock, holder),
  };
}
