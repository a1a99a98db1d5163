import { MongoBulkWriteError, type Collection } from 'mongodb';
import { isDuplicateKey } from '../infra/duplicate-key';
import { asUnavailable } from '../infra/unavailable';
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

/** One take waiting in a process's queue for its key and window. */
interface Waiting {
  amount: number;
  bound: number | null;
  done(result: { granted: boolean; total: number }): void;
  failed(err: unknown): void;
}

/**
 * FerretDB: entry n of a window has the `_id` (key, window, n) and holds the running total after it; a take
 * inserts the next one, and the unique `_id` lets exactly one insert win each place. A process gathers the
 * takes of one key that arrive while its last placement is under way and places them together, in order, in
 * one ordered insert: those placed before a place another process won are granted, the rest try again from
 * there. So a burst costs a process one round trip per group, not one per take (nor, as a read-then-insert
 * per take would, about N²/2); it remembers the last entry it placed or saw, a refusal costs one read to
 * confirm no give-back made room, and each place another process won costs one more read.
 */
export class EntryTally implements Tally {
  private readonly seen = new Map<string, Head>();
  private readonly waiting = new Map<string, Waiting[]>();

  constructor(private readonly entries: Collection<LimitEntryDoc>) {}

  add(key: string, window: Window, amount: number, bound: number | null): Promise<{ granted: boolean; total: number }> {
    const memo = windowId(key, window);
    return new Promise((done, failed) => {
      const queue = this.waiting.get(memo);
      if (queue) return queue.push({ amount, bound, done, failed });
      this.waiting.set(memo, [{ amount, bound, done, failed }]);
      void this.drain(key, window, memo);
    });
  }

  async total(key: string, window: Window): Promise<number> {
    return (await this.head(key, window)).total;
  }

  /**
   * Places the key's waiting takes, group after group, until none is left. A database that cannot be reached
   * fails the takes that waited behind the group too: their own try would only wait out server selection
   * again (3 s), and a call/initiate queued so answered its 503 after 6.1 s in a chaos run's outage.
   */
  private async drain(key: string, window: Window, memo: string): Promise<void> {
    for (;;) {
      const group = this.waiting.get(memo) ?? [];
      if (group.length === 0) {
        this.waiting.delete(memo);
        return;
      }
      this.waiting.set(memo, []);
      try {
        await this.place(key, window, group);
      } catch (err) {
        const failed = asUnavailable(err) ? [...group, ...(this.waiting.get(memo) ?? []).splice(0)] : group;
        for (const take of failed) take.failed(err);
      }
    }
  }

  /** Places a group of takes in arrival order; settles each. */
  private async place(key: string, window: Window, group: Waiting[]): Promise<void> {
    let head = this.seen.get(windowId(key, window)) ?? (await this.head(key, window));
    let left = group;
    for (let lost = 0; left.length > 0 && lost < MAX_LOST; lost++) {
      let { seq, total } = head;
      const placed: Array<{ take: Waiting; entry: LimitEntryDoc }> = [];
      const refused: Waiting[] = [];
      for (const take of left) {
        if (take.bound !== null && total + take.amount > take.bound) {
          refused.push(take);
          continue;
        }
        seq++;
        total += take.amount;
        placed.push({ take, entry: { _id: entryId(key, window, seq), key, window_start: window.start, expires_at: window.end, total } });
      }
      const won = placed.length === 0 ? 0 : await this.insertInOrder(placed.map((p) => p.entry));
      for (const { take, entry } of placed.slice(0, won)) take.done({ granted: true, total: entry.total });
      if (won > 0) {
        const last = placed[won - 1].entry;
        head = { seq: head.seq + won, total: last.total };
        this.remember(key, window, head);
      }
      if (won < placed.length) {
        // Another process took the next place: read on from it, and try the rest again.
        head = await this.head(key, window, head);
        left = [...placed.slice(won).map((p) => p.take), ...refused];
        continue;
      }
      if (refused.length === 0) return;
      // What this process saw may be behind: another's give-back can have made room since.
      const latest = await this.head(key, window, head);
      if (latest.seq === head.seq) {
        for (const take of refused) take.done({ granted: false, total: head.total });
        return;
      }
      head = latest;
      left = refused;
    }
    for (const take of left) take.done({ granted: false, total: head.total });
  }

  /** Inserts entries in order, stopping at the first place taken; how many were inserted. */
  private async insertInOrder(docs: LimitEntryDoc[]): Promise<number> {
    try {
      await (docs.length === 1 ? this.entries.insertOne(docs[0]) : this.entries.insertMany(docs, { ordered: true }));
      return docs.length;
    } catch (err) {
      // A bulk write's error is also a server error with code 11000: its first failed write says how many went in.
      if (err instanceof MongoBulkWriteError) {
        const first = [err.writeErrors].flat()[0];
        if (first?.code === 11000) return first.index;
        throw err;
      }
      if (isDuplicateKey(err)) return 0;
      throw err;
    }
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
}

const entryId = (key: string, window: Window, seq: number) => `${windowId(key, window)}#${seq}`;
