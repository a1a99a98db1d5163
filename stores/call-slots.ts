import { createHash } from 'node:crypto';
import type { Database } from '../infra/database';
import { claim, released } from '../infra/claims';
import { isDuplicateKey } from '../infra/duplicate-key';

/**
 * A workspace's calling slots: slot i is the claim `call-slot/<workspace>/<i>` (infra/claims.ts, exclusive on
 * FerretDB too), held by one attempt (`<call>/<attempt>`) until it ends, or until its lease (the attempt's
 * report deadline) runs out, so a holder that never gives it back frees it anyway. Every read and write is
 * by exact `_id`.
 *
 * A call that finds every slot held leaves its name as the workspace's waiter (`call-slot-waiter/<workspace>`,
 * the latest such call's), and the next release of any slot takes it away, so the worker can tell that call to
 * look again at once instead of at its next look, up to 19 s later. It is a hint in a document of its own,
 * never written into a slot's claim: a lost or stale one costs a timer's wait, or one look too many.
 */

export interface HeldSlot {
  key: string;
  holder: string;
}

/** Slots read at once after the first one tried, when that one is held; each further batch doubles. */
const FIRST_BATCH = 4;

export const slotHolder = (callId: string, attempt: number) => `${callId}/${attempt}`;

/**
 * Per workspace, the slots this process holds or is trying to take. A take tries the others first, so a burst
 * of takes in one process (50 calls dialled at once) goes to 50 different slots at the first try instead of
 * colliding on a third of them, each collision costing a failed insert and a few reads. It is only a hint: a
 * slot another process took is found held by its insert, and one this process took but another gave back
 * (an activity retried elsewhere) is still tried, last.
 */
const busyHere = new Map<string, Set<number>>();
const busyIn = (workspaceId: string) => busyHere.get(workspaceId) ?? busyHere.set(workspaceId, new Set()).get(workspaceId)!;
const SLOT_PREFIX = 'call-slot/';
const slotKey = (workspaceId: string, index: number) => `${SLOT_PREFIX}${workspaceId}/${index}`;
const waiterKey = (workspaceId: string) => `call-slot-waiter/${workspaceId}`;
const slotOf = (key: string) => {
  const cut = key.lastIndexOf('/');
  return { workspaceId: key.slice(SLOT_PREFIX.length, cut), index: Number(key.slice(cut + 1)) };
};

/**
 * One of the `cap` slots for `holder`, or null when all are held. Looks start at a place of the holder's
 * own, so waiting calls do not all try the same slot first. A holder that asks again gets a slot it holds
 * when the look reaches it first; the caller keeps the slot it took (the call's `capacity_slot`) and does not
 * ask again, so only a crash between the claim and that record can leave a second slot held, until its lease.
 */
async function takeSlot(
  db: Database,
  workspaceId: string,
  holder: string,
  cap: number,
  leaseUntil: Date,
  now: Date,
): Promise<HeldSlot | null> {
  const busy = busyIn(workspaceId);
  const start = createHash('sha256').update(holder).digest().readUInt32BE(0) % cap;
  const order = Array.from({ length: cap }, (_, i) => (start + i) % cap);
  const indexes = [...order.filter((i) => !busy.has(i)), ...order.filter((i) => busy.has(i))];
  /** Claims slot `index`, marked busy here from before the insert until it is known not to be ours. */
  const take = async (index: number): Promise<HeldSlot | null> => {
    const key = slotKey(workspaceId, index);
    // Already marked: held here for another holder, which its release unmarks.
    const mine = !busy.has(index);
    busy.add(index);
    let owner: string | undefined;
    try {
      owner = await claim(db, key, holder, { now, expiresAt: leaseUntil });
    } finally {
      if (owner !== holder && mine) busy.delete(index);
    }
    return owner === holder ? { key, holder } : null;
  };
  // The first slot is tried at once: free, it costs one insert, as most takes do.
  const first = await take(indexes[0]);
  if (first) return first;
  // Then the next ones in batches read in parallel, each twice the last (4, 8, 16 …), claiming only those free
  // or run out. A take among a few held slots reads a few (reading all the others at once cost 21 reads per
  // call when 50 dialled together under a cap of 50); a look that finds all held, the common case while calls
  // wait, still reads each slot once, in a few round trips instead of one.
  for (let from = 1, size = FIRST_BATCH; from < cap; from += size, size *= 2) {
    const batch = indexes.slice(from, from + size);
    const held = await Promise.all(batch.map((index) => db.claims.findOne({ _id: slotKey(workspaceId, index) })));
    for (const [i, index] of batch.entries()) {
      const c = held[i];
      if (c && c.holder !== holder && (!c.expires_at || c.expires_at > now)) continue;
      const taken = await take(index);
      if (taken) return taken;
    }
  }
  return null;
}

/** The latest waiter's name, in place of any before it (the likeliest to wait still); two at once leave one. */
async function leaveWaiter(db: Database, key: string, waiter: string, now: Date): Promise<void> {
  try {
    await db.claims.replaceOne({ _id: key }, { holder: waiter, expires_at: null, created_at: now }, { upsert: true });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

/**
 * Gives the slot back if `slot.holder` still holds it; then the workspace's waiter, if any, is taken away, to
 * be told. A slot given back already (a retried activity) takes no waiter: no slot was freed for it.
 */
async function releaseSlot(db: Database, slot: HeldSlot): Promise<string | null> {
  const { workspaceId, index } = slotOf(slot.key);
  const freed = await released(db, slot.key, slot.holder);
  busyHere.get(workspaceId)?.delete(index);
  return freed ? ((await db.claims.findOneAndDelete({ _id: waiterKey(workspaceId) }))?.holder ?? null) : null;
}

/** The workspace's calling slots (max_concurrent_calls), taken by an attempt and given back when it ends. */
export function callSlotStore(db: Database) {
  return {
    /** A slot for `holder`, or null when all are held; then `waiter`, when given, is left as the workspace's waiter. */
    async take(workspaceId: string, holder: string, cap: number, leaseUntil: Date, now = new Date(), opts: { waiter?: string } = {}) {
      const slot = await takeSlot(db, workspaceId, holder, cap, leaseUntil, now);
      if (!slot && opts.waiter) await leaveWaiter(db, waiterKey(workspaceId), opts.waiter, now);
      return slot;
    },
    /** Gives the slot back: the workspace's waiting call it takes away (its id), to be told, or null. Repeatable. */
    release: (slot: HeldSlot) => releaseSlot(db, slot),
    /**
     * Whether one of the `cap` slots is free now (neither claimed nor held past its lease): reads by `_id`, 16
     * at a time, until one is found free, so a workspace with free slots costs one round trip.
     */
    async anyFree(workspaceId: string, cap: number, now = new Date()): Promise<boolean> {
      for (let from = 0; from < cap; from += 16) {
        const batch = Array.from({ length: Math.min(16, cap - from) }, (_, i) => slotKey(workspaceId, from + i));
        const held = await Promise.all(batch.map((key) => db.claims.findOne({ _id: key })));
        if (held.some((c) => !c || (c.expires_at != null && c.expires_at <= now))) return true;
      }
      return false;
    },
  };
}

export type CallSlotStore = ReturnType<typeof callSlotStore>;
