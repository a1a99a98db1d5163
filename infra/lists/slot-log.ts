import type { Collection } from 'mongodb';
import { isDuplicateKey } from '../duplicate-key';

/**
 * Append-only logs kept in `_id`-keyed documents, safe for any number of writers on FerretDB. A log `L` is the
 * documents `L|0`, `L|1`, … Each holds the entries of one append, and is inserted once and never changed.
 *
 * Why inserts and not `$set`s into one document: FerretDB 1.x applies an update by reading the document and
 * writing it back whole, outside any transaction, so two writers setting *different* fields of one document
 * lose one another's write (seen in the lists test: 2 runs in 5). An insert of a new `_id` is atomic on FerretDB
 * and MongoDB alike: of two writers of one slot, exactly one wins, and the other takes the next slot.
 *
 * A writer inserts slot n only once it knows slot n-1 exists, so the written slots are always 0..k with no gap,
 * and a reader reads until the first missing slot. Appends of one process to one log wait for the one in flight
 * and then go together in the next slot (group commit): 50 calls changing at once make a few inserts, not 50
 * writers racing for slots.
 */
export interface SlotDoc {
  _id: string;
  e: string[];
}

export interface SlotLog {
  /** Appends the entries to the log; resolves once they are stored. */
  append(log: string, entries: string[]): Promise<void>;
  /** Every entry of the log, in the order appended. */
  read(log: string): Promise<string[]>;
}

interface Pending {
  entries: string[];
  resolve(): void;
  reject(err: unknown): void;
}

/** Logs whose next free slot a process remembers; past this, the longest unused are forgotten. */
const REMEMBERED = 50_000;
/** Slots read at once when a log's length is unknown; each further batch doubles. */
const FIRST_READ = 4;
/** Entries of read slots a process keeps. */
const CACHED_ENTRIES = 200_000;

const size = (slots: string[][]) => slots.reduce((n, e) => n + e.length, 0);

export function slotLogs(collection: Collection<SlotDoc>): SlotLog {
  const next = new Map<string, number>();
  const queues = new Map<string, Pending[]>();
  const cache = new Map<string, string[][]>();
  let cached = 0;

  const remember = (log: string, slot: number) => {
    next.delete(log);
    next.set(log, slot);
    if (next.size > REMEMBERED) next.delete(next.keys().next().value!);
  };

  /**
   * The log's slots. Slots never change once written, so each process keeps those it has read (up to
   * CACHED_ENTRIES entries, the longest unread forgotten first) and reads only past them: a walk over a list
   * that has not changed costs one missing read per log.
   */
  async function slots(log: string): Promise<string[][]> {
    const found = cache.get(log) ?? [];
    // Out of the cache (and its count) while reading past it; back in, at the newest end, below.
    cache.delete(log);
    cached -= size(found);
    for (let batch = found.length > 0 ? 1 : FIRST_READ; ; batch *= 2) {
      const start = found.length;
      const docs = await Promise.all(Array.from({ length: batch }, (_, i) => collection.findOne({ _id: `${log}|${start + i}` })));
      const missing = docs.indexOf(null);
      for (const doc of missing < 0 ? docs : docs.slice(0, missing)) found.push(doc!.e);
      if (missing >= 0) break;
    }
    // Two reads of one log at once each keep what they read; the later one stays.
    const prior = cache.get(log);
    if (prior) cached -= size(prior);
    cache.set(log, found);
    cached += size(found);
    for (const [old, entries] of cache) {
      if (cached <= CACHED_ENTRIES) break;
      cache.delete(old);
      cached -= size(entries);
    }
    return found;
  }

  /** Writes the queued appends of `log`, a slot per round, until none are left. One runs per log at a time. */
  async function drain(log: string, queue: Pending[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0);
      try {
        let slot = next.get(log) ?? 0;
        for (let tries = 0; ; tries++) {
          try {
            await collection.insertOne({ _id: `${log}|${slot}`, e: batch.flatMap((p) => p.entries) });
            break;
          } catch (err) {
            if (!isDuplicateKey(err)) throw err;
            // Another process wrote it: on the first miss, count the log instead of climbing a slot at a time.
            slot = tries === 0 ? Math.max(slot + 1, (await slots(log)).length) : slot + 1;
          }
        }
        remember(log, slot + 1);
        for (const p of batch) p.resolve();
      } catch (err) {
        next.delete(log);
        for (const p of batch) p.reject(err);
      }
    }
    queues.delete(log);
  }

  return {
    append(log, entries) {
      return new Promise<void>((resolve, reject) => {
        const queue = queues.get(log);
        if (queue) return void queue.push({ entries, resolve, reject });
        const fresh: Pending[] = [{ entries, resolve, reject }];
        queues.set(log, fresh);
        void drain(log, fresh);
      });
    },

    async read(log) {
      return (await slots(log)).flat();
    },
  };
}
