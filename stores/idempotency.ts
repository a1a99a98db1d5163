import { createHash } from 'node:crypto';
import type { Database } from '../infra/database';
import { claim, release } from '../infra/claims';
import { keyedId, newId } from '../infra/ids';
import type { IdempotencyDoc } from '../infra/documents/idempotency';

/**
 * Idempotency keys (the IETF httpapi draft "The Idempotency-Key HTTP Header Field"): the first request with
 * a key runs, and its answer is kept for KEPT_HOURS; a retry with the same key and the same request gets that
 * answer again. While the first runs, it holds a claim on the key (infra/claims.ts: exclusive on FerretDB
 * too), so a twin sent meanwhile, by any API process, is told so instead of running twice.
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

export function idempotencyStore(db: Database) {
  return {
    async begin(workspaceId: string, key: string, fingerprint: string, now = new Date()): Promise<Begun> {
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
    },

    /**
     * Deletes the workspace's kept answers that name any of `values` (a call/initiate or invite answer lists
     * each candidate's name, email and phone): an erasure's. A retry with one of those keys then runs again.
     */
    async forgetNaming(workspaceId: string, values: Array<string | undefined>): Promise<void> {
      const needles = values.filter((v): v is string => !!v).map((v) => JSON.stringify(v).toLowerCase());
      if (needles.length === 0) return;
      const kept = await db.idempotencyKeys.find({ workspace_id: workspaceId }, { projection: { _id: 1, body: 1 } }).toArray();
      const naming = kept.filter((k) => needles.some((n) => k.body.toLowerCase().includes(n))).map((k) => k._id);
      await Promise.all(naming.map((id) => db.idempotencyKeys.deleteOne({ _id: id })));
    },

    /** Removes answers past their time (MongoDB's TTL index does it on its own; FerretDB 1.x has none). */
    async purgeExpired(now: Date): Promise<number> {
      return (await db.idempotencyKeys.deleteMany({ expires_at: { $lte: now } })).deletedCount;
    },
  };
}

export type IdempotencyStore = ReturnType<typeof idempotencyStore>;
