import { isDuplicateKey } from './duplicate-key';
import type { Database } from './database';
import type { RateLimitDoc } from './records/coordination';

/**
 * A fixed-window budget kept in the database, so every process shares one count. A window's grants form a
 * ledger: entry n has the _id (bucket, window, n) and holds the running total after it. A request reads the
 * ledger's last entry and inserts the next one with its amount added; the unique _id lets exactly one insert
 * win each place, on MongoDB and on FerretDB alike, and a loser reads again and tries the place after. `$inc`
 * on a counter would do on MongoDB, but FerretDB 1.x applies updates as an unisolated read-then-write:
 * measured, 20 concurrent upserting `$inc`s of one document left counts of 2 to 16.
 *
 * Every read is by exact _id, the one read FerretDB pushes down. The last entry is found from the last one this
 * process saw, galloping forward then halving, so a quiet process needs a few reads, not one per grant.
 * Windows are aligned to multiples of their length since the epoch (whole minutes for 60 s, whole hours,
 * UTC days), so every process agrees on them without coordination.
 */

export interface RateLimitDecision {
  bucket: string;
  allowed: boolean;
  limit: number;
  /** What is still allowed in this window after this request. */
  remaining: number;
  /** When the current window ends and the budget is whole again. */
  resetAt: Date;
  /** Whole seconds until resetAt, at least 1. */
  retryAfterSeconds: number;
  /** What this request took, so a request that failed on our side can give it back. */
  spent?: { amount: number; windowStart: Date };
}

export interface RateLimitOptions {
  limit: number;
  windowSeconds: number;
}

/** How many ledger places one request may lose to others before it gives up (each loss is another's grant). */
const MAX_CONTENDED = 1_000;
/** How many buckets' last entries a process remembers; older ones are found again in a few reads. */
const REMEMBERED = 10_000;

interface Head {
  seq: number;
  total: number;
}

export class RateLimiter {
  private readonly windowMs: number;
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly opts: RateLimitOptions,
  ) {
    this.windowMs = opts.windowSeconds * 1000;
  }

  /** Takes `amount` from `bucket`'s budget, all of it or, when less is left, none. */
  async consume(bucket: string, now = new Date(), amount = 1): Promise<RateLimitDecision> {
    const window = this.windowOf(now);
    const { granted, total } = await this.append(bucket, window, amount, true);
    if (!granted) return this.decision(bucket, false, this.opts.limit - total, window, now);
    return this.decision(bucket, true, this.opts.limit - total, window, now, { amount, windowStart: window.start });
  }

  /** The budget as it stands, without spending any of it. */
  async peek(bucket: string, now = new Date()): Promise<RateLimitDecision> {
    const window = this.windowOf(now);
    const head = await this.head(bucket, window.start);
    return this.decision(bucket, head.total < this.opts.limit, this.opts.limit - head.total, window, now);
  }

  /** Gives back what a request took, for requests that failed through no fault of the caller; returns the budget after it. */
  async refund(decision: RateLimitDecision, now = new Date()): Promise<RateLimitDecision> {
    const spent = decision.spent;
    if (spent) {
      const start = spent.windowStart.getTime();
      await this.append(decision.bucket, { start: spent.windowStart, end: new Date(start + this.windowMs) }, -spent.amount, false);
    }
    return this.peek(decision.bucket, now);
  }

  /**
   * Appends an entry of `amount` and returns the new total; when it would pass the limit and `bounded` says no,
   * appends nothing and returns the total as it stands.
   */
  private async append(
    bucket: string,
    window: { start: Date; end: Date },
    amount: number,
    bounded: boolean,
  ): Promise<{ granted: boolean; total: number }> {
    for (let lost = 0; lost < MAX_CONTENDED; lost++) {
      const head = await this.head(bucket, window.start);
      const total = head.total + amount;
      if (bounded && total > this.opts.limit) return { granted: false, total: head.total };
      const seq = head.seq + 1;
      const entry: RateLimitDoc = {
        _id: entryId(bucket, window.start, seq),
        bucket,
        window_start: window.start,
        expires_at: window.end,
        total,
      };
      try {
        await this.db.rateLimits.insertOne(entry);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        this.remember(bucket, window.start, seq);
        continue;
      }
      this.remember(bucket, window.start, seq);
      if (seq === 1) this.forgetOldWindows(bucket, window.start);
      return { granted: true, total };
    }
    throw new Error(`rate limit ${bucket} lost ${MAX_CONTENDED} places in a row`);
  }

  /** The window's last entry: from the last one seen, doubling the step while entries exist, then halving. */
  private async head(bucket: string, windowStart: Date): Promise<Head> {
    // An entry without a total is a grant of one from before the ledger, when each grant had its own place.
    const read = async (seq: number) => {
      const entry = await this.db.rateLimits.findOne({ _id: entryId(bucket, windowStart, seq) });
      return entry && { total: entry.total ?? seq };
    };
    const known = this.seen.get(memoKey(bucket, windowStart)) ?? 0;
    let low: Head = { seq: 0, total: 0 };
    if (known > 0) {
      const entry = await read(known);
      if (entry) low = { seq: known, total: entry.total };
    }
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
    if (low.seq > 0) this.remember(bucket, windowStart, low.seq);
    return low;
  }

  private remember(bucket: string, windowStart: Date, seq: number): void {
    const key = memoKey(bucket, windowStart);
    if ((this.seen.get(key) ?? 0) >= seq) return;
    this.seen.delete(key);
    this.seen.set(key, seq);
    if (this.seen.size > REMEMBERED) this.seen.delete(this.seen.keys().next().value!);
  }

  private windowOf(now: Date): { start: Date; end: Date } {
    const start = Math.floor(now.getTime() / this.windowMs) * this.windowMs;
    return { start: new Date(start), end: new Date(start + this.windowMs) };
  }

  private decision(
    bucket: string,
    allowed: boolean,
    remaining: number,
    window: { end: Date },
    now: Date,
    spent?: RateLimitDecision['spent'],
  ): RateLimitDecision {
    const retryAfterSeconds = Math.max(1, Math.ceil((window.end.getTime() - now.getTime()) / 1000));
    return {
      bucket,
      allowed,
      limit: this.opts.limit,
      remaining: Math.min(this.opts.limit, Math.max(0, remaining)),
      resetAt: window.end,
      retryAfterSeconds,
      spent,
    };
  }

  /**
   * The first grant of a window clears the bucket's earlier windows. MongoDB's TTL index would do it on its
   * own, and the worker's housekeeping does on FerretDB; this keeps a busy bucket small between sweeps. Best
   * effort and off the request's path: a failure only leaves history.
   */
  private forgetOldWindows(bucket: string, current: Date): void {
    this.db.rateLimits.deleteMany({ bucket, window_start: { $lt: current } }).catch(() => undefined);
  }
}

function entryId(bucket: string, windowStart: Date, seq: number): string {
  return `${bucket}@${windowStart.getTime()}#${seq}`;
}

function memoKey(bucket: string, windowStart: Date): string {
  return `${bucket}@${windowStart.getTime()}`;
}
