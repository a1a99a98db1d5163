import { MongoServerError } from 'mongodb';
import type { Database } from './database';

/**
 * Exclusive claims on a key ("this email belongs to candidate X", "candidate Y is being called", "project Z's
 * questions are being generated"). A claim is a document whose _id is the key, so the unique _id index decides
 * the winner. Conditional updates (findOneAndUpdate on a null field) would do on MongoDB, but FerretDB 1.x runs
 * them as read-then-write without isolation and lets several concurrent callers win; inserts stay exclusive.
 */
export interface ClaimDoc {
  _id: string;
  holder: string;
  /** A claim that outlives this (its holder died) may be taken over; null for claims that never expire. */
  expires_at: Date | null;
  created_at: Date;
}

/** Claims `key` for `holder`; returns the holder that owns it afterwards (`holder` itself when it won). */
export async function claim(db: Database, key: string, holder: string, opts: { expiresAt?: Date; now?: Date } = {}): Promise<string> {
  const now = opts.now ?? new Date();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await db.claims.insertOne({ _id: key, holder, expires_at: opts.expiresAt ?? null, created_at: now });
      return holder;
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === 11000)) throw err;
    }
    const current = await db.claims.findOne({ _id: key });
    if (!current) continue; // released meanwhile: try again
    if (!current.expires_at || current.expires_at > now) return current.holder;
    // Expired: remove exactly that claim, then compete for the key again.
    await db.claims.deleteOne({ _id: key, holder: current.holder });
  }
  return (await db.claims.findOne({ _id: key }))?.holder ?? holder;
}

/** Gives up `key` if `holder` still owns it. */
export async function release(db: Database, key: string, holder: string): Promise<void> {
  await db.claims.deleteOne({ _id: key, holder });
}

export async function holderOf(db: Database, key: string): Promise<string | null> {
  return (await db.claims.findOne({ _id: key }))?.holder ?? null;
}

/** The claim that lets a candidate have one active call at a time. */
export function activeCallKey(projectId: string, candidateId: string): string {
  return `call/${projectId}/${candidateId}`;
}
