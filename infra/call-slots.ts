import { createHash } from 'node:crypto';
import type { Database } from './database';
import { claim, release } from './claims';

/**
 * A workspace's calling slots: slot i is the claim `call-slot/<workspace>/<i>` (infra/claims.ts, exclusive on
 * FerretDB too), held by one attempt (`<call>/<attempt>`) until it ends, or until its lease (the attempt's
 * report deadline) runs out, so a holder that never gives it back frees it anyway. Every read and write is
 * by exact `_id`.
 */

export interface HeldSlot {
  key: string;
  holder: string;
}

/** Slots read at once after the holder's own first one, when that one is held; each further batch doubles. */
const FIRST_BATCH = 4;

export const slotHolder = (callId: string, attempt: number) => `${callId}/${attempt}`;

/**
 * One of the `cap` slots for `holder`, or null when all are held. Looks start at a place of the holder's
 * own, so waiting calls do not all try the same slot first. A holder that asks again gets a slot it holds
 * when the look reaches it first; the caller keeps the slot it took (the call's `capacity_slot`) and does not
 * ask again, so only a crash between the claim and that record can leave a second slot held, until its lease.
 */
export async function takeSlot(
  db: Database,
  workspaceId: string,
  holder: string,
  cap: number,
  leaseUntil: Date,
  now = new Date(),
): Promise<HeldSlot | null> {
  const start = createHash('sha256').update(holder).digest().readUInt32BE(0) % cap;
  const keys = Array.from({ length: cap }, (_, i) => `call-slot/${workspaceId}/${(start + i) % cap}`);
  // The holder's own first slot is tried at once: free, it costs one insert, as most takes do.
  if ((await claim(db, keys[0], holder, { now, expiresAt: leaseUntil })) === holder) return { key: keys[0], holder };
  // Then the next ones in batches read in parallel, each twice the last (4, 8, 16 …), claiming only those free
  // or run out. A take among a few held slots reads a few (reading all the others at once cost 21 reads per
  // call when 50 dialled together under a cap of 50); a look that finds all held, the common case while calls
  // wait, still reads each slot once, in a few round trips instead of one.
  for (let from = 1, size = FIRST_BATCH; from < cap; from += size, size *= 2) {
    const batch = keys.slice(from, from + size);
    const held = await Promise.all(batch.map((key) => db.claims.findOne({ _id: key })));
    for (const [i, key] of batch.entries()) {
      const c = held[i];
      if (c && c.holder !== holder && (!c.expires_at || c.expires_at > now)) continue;
      if ((await claim(db, key, holder, { now, expiresAt: leaseUntil })) === holder) return { key, holder };
    }
  }
  return null;
}

export function releaseSlot(db: Database, slot: HeldSlot): Promise<void> {
  return release(db, slot.key, slot.holder);
}
