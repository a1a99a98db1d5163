import type { Collection } from 'mongodb';
import { isDuplicateKey } from '../infra/duplicate-key';
import type { LimitEntryDoc } from '../infra/documents/coordination';

/**
 * How a limit's count is kept in one window (stores/limits.ts), one way per database, each exact under
 * concurrency and never a 500 from contention:
 * - MongoDB: one counter document per key and window, raised by a conditional `$inc` (one atomic round trip);
 * - FerretDB 1.x: its updates are unisolated read-then-writes (measured: 20 concurrent upserting `$inc`s of
 *   one document left counts of 2 to 16), so the count is a run of inserted entries with unique `_id`s.
 * Every read and write names an exact `_id`, the one thing FerretDB finds without a scan.
 */

export interface Window {
  start: Date;
  end: Date;
}

export interface Tally {
  /**
   * Adds `amount` and returns the window's new total; with a `bound`, adds nothing when the total would pass
   * it (or cannot be placed: too many other processes' takes won the places) and returns the total seen.
   */
  add(key: string, window: Window, amount: number, bound: number | null): Promise<{ granted: boolean; total: number }>;
  total(key: string, window: Window): Promise<number>;
}

const windowId = (key: string, window: Window) => `${key}@${window.start.getTime()}`;

/** MongoDB: `{_id: key@window, total}` raised only while `total + amount` stays within the bound. */
export class CounterTally implements Tally {
  constructor(private readonly entries: Collection<LimitEntryDoc>) {}

  async add(key: string, window: Window, amount: number, bound: number | null): Promise<{ granted: boolean; total: number }> {
    const _id = windowId(key, window);
    if (bound !== null && amount > bound) return { granted: false, total: await this.total(key, window) };
    // Two tries: the second follows a lost race to create the window's document, after which it exists.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const filter = bound === null ? { _id } : { _id, total: { $lte: bound - amount } };
        const counted = await this.entries.findOneAndUpdate(
          filter,
          { $inc: { total: amount }, $setOnInsert: { key, window_start: window.start, expires_at: window.end } },
          { upsert: true, returnDocument: 'after' },
        );
        return { granted: true, total: counted?.total ?? amount };
      } catch (err) {
        // The filter missed an existing document: it is full, or another request created it a moment ago.
        if (!isDuplicateKey(err)) throw err;
        const total = await this.total(key, window);
        if (bound !== null && total + amount > bound) return { granted: false, total };
      }
    }
    return { granted: false, total: await this.total(key, window) };
  }

  async total(key: string, window: Window): Promise<number> {
    return (await this.entries.findOne({ _id: windowId(key, window) }))?.total ?? 0;
  }
}

/** How many places one take may lose to other processes before it is refused (a 429, never a 500). */
const MAX_LOST = 50;
/** How many keys' last entries a process remembers; older ones are found again in a few reads. */
const REMEMBERED = 10_000;

interface Head {
  seq: number;
  total: number;
}

/**
 * FerretDB: entry n of a window has the `_id` (key, window, n) and holds the running total after it; a take
 * inserts the next one, and the unique `_id` lets exactly one insert win each place. A process queues its own
 * takes of one key, so they never race each other, and remembers the last entry it placed or saw: an
 * uncontended take is one insert, a refusal one read, and each take another process won costs one more read.
 */
export class EntryTally implements Tally {
  private readonly seen = new Map<string, Head>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly entries: Collection<LimitEntryDoc>) {}

  add(key: string, window: Window, amount: number, bound: number | null): Promise<{ granted: boolean; total: number }> {
    return this.queued(windowId(key, window), () => this.place(key, window, amount, bound));
  }

  async total(key: string, window: Window): Promise<number> {
    return (await this.head(key, window)).total;
  }

  private async place(key: string, window: Window, amount: number, bound: number | null) {
    let head = this.seen.get(windowId(key, window)) ?? (await this.head(key, window));
    for (let lost = 0; lost < MAX_LOST; lost++) {
      const total = head.total + amount;
      if (bound !== null && total > bound) {
        // What this process saw may be behind: another's give-back can have made room since.
        const latest = await this.head(key, window, head);
        if (latest.seq === head.seq) return { granted: false, total: head.total };
        head = latest;
        continue;
      }
      const seq = head.seq + 1;
      const entry: LimitEntryDoc = { _id: entryId(key, window, seq), key, window_start: window.start, expires_at: window.end, total };
      try {
        await this.entries.insertOne(entry);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        head = await this.head(key, window, head);
        continue;
      }
      this.remember(key, window, { seq, total });
      return { granted: true, total };
    }
    return { granted: false, total: head.total };
  }

  /** The window's last entry: from the last one known, doubling the step while entries exist, then halving. */
  private async head(key: string, window: Window, from?: Head): Promise<Head> {
    // An entry without a total is a take of one from before the running totals, when each had its own place.
    const read = async (seq: number) => {
      const entry = await this.entries.findOne({ _id: entryId(key, window, seq) });
      return entry && { total: entry.total ?? seq };
    };
    let low: Head = from ?? this.seen.get(windowId(key, window)) ?? { seq: 0, total: 0 };
    let high = 0;
    for (let step = 1; high === 0; step *= 2) {
      const entry = await read(low.seq + step);
      if (entry) low = { seq: low.seq + step, total: entry.total };
      else high = low.seq + step;
    }
    // Entries are placed in order, so every place below one that exists is taken: halve between low and high.
    while (high - low.seq > 1) {
      const mid = Math.floor((low.seq + high) / 2);
      const entry = await read(mid);
      if (entry) low = { seq: mid, total: entry.total };
      else high = mid;
    }
    if (low.seq > 0) this.remember(key, window, low);
    return low;
  }

  private remember(key: string, window: Window, head: Head): void {
    const memo = windowId(key, window);
    if ((this.seen.get(memo)?.seq ?? 0) >= head.seq) return;
    this.seen.delete(memo);
    this.seen.set(memo, head);
    if (this.seen.size > REMEMBERED) this.seen.delete(this.seen.keys().next().value!);
  }

  /** Runs `work` after this process's earlier takes of the same key and window. */
  private queued<T>(memo: string, work: () => Promise<T>): Promise<T> {
    const done = (this.queues.get(memo) ?? Promise.resolve()).then(work, work);
    const settled = done.catch(() => undefined);
    this.queues.set(memo, settled);
    void settled.then(() => {
      if (this.queues.get(memo) === settled) this.queues.delete(memo);
    });
    return done;
  }
}

const entryId = (key: string, window: Window, seq: number) => `${windowId(key, window)}#${seq}`;
