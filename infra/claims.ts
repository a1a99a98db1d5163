/**
 * Exclusive claims on a key ("this email belongs to candidate X", "candidate Y is being called", "project Z's
 * questions are being generated"). A claim is a document whose _id is the key, so the unique _id index decides
 * the winner. Conditional updates (findOneAndUpdate on a null field) would do on MongoDB, but FerretDB 1.x runs
 * them as read-then-write without isolation and lets several concurrent callers win; inserts stay exclusive.
 * Every read and delete on the hot paths is an exact `_id` match, the one filter FerretDB's SQLite backend
 * answers from its index.
 */

import type { Database } from './database';
import { insertEach, isDuplicateKey, type WriteResult } from './duplicate-key';
import type { ClaimDoc } from './documents/coordination';

/** Claims `key` for `holder`; returns the holder that owns it afterwards (`holder` itself when it won). */
export async function claim(db: Database, key: string, holder: string, opts: { expiresAt?: Date; now?: Date } = {}): Promise<string> {
  const now = opts.now ?? new Date();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await db.claims.insertOne({ _id: key, holder, expires_at: opts.expiresAt ?? null, created_at: now });
      return holder;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const current = await db.claims.findOne({ _id: key });
    if (!current) continue; // released meanwhile: try again
    if (!current.expires_at || current.expires_at > now) return current.holder;
    // Expired: remove exactly that claim, then compete for the key again. The holder condition scans the
    // claims on FerretDB; this runs only when a lease ran out, so exactness is worth more than the scan here.
    await db.claims.deleteOne({ _id: key, holder: current.holder });
  }
  return (await db.claims.findOne({ _id: key }))?.holder ?? holder;
}

/**
 * Claims many keys that never expire in one round trip: per key, `written` when this holder won it, `duplicate`
 * when it was already held (by anyone, this holder included: read it with claimOf), `error` when unknown.
 */
export function claimEach(db: Database, claims: Array<{ key: string; holder: string }>, now = new Date()): Promise<WriteResult[]> {
  return insertEach(
    db.claims,
    claims.map((c) => ({ _id: c.key, holder: c.holder, expires_at: null, created_at: now })),
  );
}

/**
 * Gives up `key` if `holder` still owns it. Read, then delete by `_id` alone: only the holder releases its own
 * claim, so between the two nobody else can take the key (a lease that runs out during its own release is the
 * one exception, and costs at most a repeated generation of questions).
 */
export async function release(db: Database, key: string, holder: string): Promise<void> {
  await released(db, key, holder);
}

/** `release`, telling whether this call removed the claim (false: another holds it, or it was gone already). */
export async function released(db: Database, key: string, holder: string): Promise<boolean> {
  const current = await db.claims.findOne({ _id: key });
  if (current?.holder !== holder) return false;
  return (await db.claims.deleteOne({ _id: key })).deletedCount === 1;
}

export async function claimOf(db: Database, key: string): Promise<ClaimDoc | null> {
  return db.claims.findOne({ _id: key });
}

/**
 * How long past its lease a claim is kept before the sweep removes it: a holder still at work on a lease that
 * ran out (the one race `release` names) is long done by then, so removing it changes nothing a reader sees;
 * an expired claim reads as a free one everywhere.
 */
export const CLAIM_SWEEP_GRACE_MS = 3_600_000;

/**
 * Claims written before they had a lifetime (a call-back's identity and tries, a live interview's last hold
 * number): made with none, and removed once older than the lifetime they have now (docs/reliability.md, "Claims").
 */
const BEFORE_LIFETIMES: Array<{ pattern: string; lifetimeMs: number }> = [
  { pattern: '^call-back-(identity|try)/', lifetimeMs: 2 * 86_400_000 },
  { pattern: '^live-hold/[^/]+$', lifetimeMs: 86_400_000 },
];

/**
 * Removes the claims whose lease ran out more than CLAIM_SWEEP_GRACE_MS before `now`, and those written before
 * claims had a lifetime once as old as it; the upload claims are their recordings' sweep's to remove with what
 * their upload left (stores/recordings.ts). The count removed. On FerretDB this reads every claim (it pushes no
 * range down): the hourly sweep's schedule is off every request's path (workflows/claim-sweep.ts).
 */
export async function sweepExpiredClaims(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - CLAIM_SWEEP_GRACE_MS);
  const expired = await db.claims.deleteMany({ expires_at: { $lt: before }, _id: { $not: /^upload\// } });
  let removed = expired.deletedCount;
  for (const { pattern, lifetimeMs } of BEFORE_LIFETIMES) {
    const old = new Date(before.getTime() - lifetimeMs);
    removed += (await db.claims.deleteMany({ expires_at: null, _id: { $regex: pattern }, created_at: { $lt: old } })).deletedCount;
  }
  return removed;
}
