import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import { isDuplicateKey } from '../infra/duplicate-key';
import type { LimitEntryDoc } from '../infra/documents/coordination';

/**
 * The service's limits (OWASP API4:2023): each is at most `limit` requests (or candidates, emails…) under one
 * key (`<workspace>/<name>`, `ip:<address>/<name>`, `link:<digest>/<name>`) per fixed window, counted in the
 * database so every process takes from one count. Windows are aligned to multiples of their length since the
 * epoch (whole minutes, hours, UTC days), so every process agrees on them without coordination.
 *
 * A window's count is a run of entries: entry n has the `_id` (key, window, n) and holds the running total
 * after it. A request reads the run's last entry and inserts the next one with its amount added; the unique
 * `_id` lets exactly one insert win each place, on MongoDB and on FerretDB alike, and a loser reads again and
 * tries the place after. `$inc` on a counter would do on MongoDB, but FerretDB 1.x applies updates as an
 * unisolated read-then-write: measured, 20 concurrent upserting `$inc`s of one document left counts of 2 to 16.
 * Every read is by exact `_id`. The last entry is found from the last one this process saw, galloping forward
 * then halving, so a quiet process needs a few reads, not one per request.
 */

export interface LimitDecision {
  key: string;
  allowed: boolean;
  limit: number;
  /** What is still allowed in this window after this request. */
  remaining: number;
  /** When the current window ends and the limit is whole again. */
  resetAt: Date;
  /** Whole seconds until resetAt, at least 1. */
  retryAfterSeconds: number;
  /** What this request took, so a request that failed on our side can give it back. */
  taken?: { amount: number; windowStart: Date };
}

/** How many places one request may lose to others before it gives up (each loss is another's take). */
const MAX_CONTENDED = 1_000;
/** How many keys' last entries a process remembers; older ones are found again in a few reads. */
const REMEMBERED = 10_000;

interface Head {
  seq: number;
  total: number;
}

export class Limit {
  private readonly windowMs: number;
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly opts: { limit: number; windowSeconds: number },
  ) {
    this.windowMs = opts.windowSeconds * 1000;
  }

  /** Takes `amount` under `key`, all of it or, when less is left, none. */
  async take(key: string, now = new Date(), amount = 1): Promise<LimitDecision> {
    const window = this.windowOf(now);
    const { granted, total } = await this.append(key, window, amount, true);
    if (!granted) return this.decision(key, false, this.opts.limit - total, window, now);
    return this.decision(key, true, this.opts.limit - total, window, now, { amount, windowStart: window.start });
  }

  /** The limit as it stands under `key`, taking nothing. */
  async peek(key: string, now = new Date()): Promise<LimitDecision> {
    const window = this.windowOf(now);
    const head = await this.head(key, window.start);
    return this.decision(key, head.total < this.opts.limit, this.opts.limit - head.total, window, now);
  }

  /** Gives back what a request took, for requests that failed through no fault of the caller; the limit after it. */
  async giveBack(decision: LimitDecision, now = new Date()): Promise<LimitDecision> {
    const taken = decision.taken;
    if (taken) {
      const start = taken.windowStart.getTime();
      await this.append(decision.key, { start: taken.windowStart, end: new Date(start + this.windowMs) }, -taken.amount, false);
    }
    return this.peek(decision.key, now);
  }

  /**
   * Appends an entry of `amount` and returns the new total; when it would pass the limit and `bounded` says no,
   * appends nothing and returns the total as it stands.
   */
  private async append(
    key: string,
    window: { start: Date; end: Date },
    amount: number,
    bounded: boolean,
  ): Promise<{ granted: boolean; total: number }> {
    for (let lost = 0; lost < MAX_CONTENDED; lost++) {
      const head = await this.head(key, window.start);
      const total = head.total + amount;
      if (bounded && total > this.opts.limit) return { granted: false, total: head.total };
      const seq = head.seq + 1;
      const entry: LimitEntryDoc = { _id: entryId(key, window.start, seq), key, window_start: window.start, expires_at: window.end, total };
      try {
        await this.db.limitEntries.insertOne(entry);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        this.remember(key, window.start, seq);
        continue;
      }
      this.remember(key, window.start, seq);
      if (seq === 1) this.forgetOldWindows(key, window.start);
      return { granted: true, total };
    }
    throw new Error(`limit ${key} lost ${MAX_CONTENDED} places in a row`);
  }

  /** The window's last entry: from the last one seen, doubling the step while entries exist, then halving. */
  private async head(key: string, windowStart: Date): Promise<Head> {
    // An entry without a total is a take of one from before the running totals, when each had its own place.
    const read = async (seq: number) => {
      const entry = await this.db.limitEntries.findOne({ _id: entryId(key, windowStart, seq) });
      return entry && { total: entry.total ?? seq };
    };
    const known = this.seen.get(memoKey(key, windowStart)) ?? 0;
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
    if (low.seq > 0) this.remember(key, windowStart, low.seq);
    return low;
  }

  private remember(key: string, windowStart: Date, seq: number): void {
    const memo = memoKey(key, windowStart);
    if ((this.seen.get(memo) ?? 0) >= seq) return;
    this.seen.delete(memo);
    this.seen.set(memo, seq);
    if (this.seen.size > REMEMBERED) this.seen.delete(this.seen.keys().next().value!);
  }

  private windowOf(now: Date): { start: Date; end: Date } {
    const start = Math.floor(now.getTime() / this.windowMs) * this.windowMs;
    return { start: new Date(start), end: new Date(start + this.windowMs) };
  }

  private decision(key: string, allowed: boolean, remaining: number, window: { end: Date }, now: Date, taken?: LimitDecision['taken']) {
    const retryAfterSeconds = Math.max(1, Math.ceil((window.end.getTime() - now.getTime()) / 1000));
    const limit = this.opts.limit;
    return { key, allowed, limit, remaining: Math.min(limit, Math.max(0, remaining)), resetAt: window.end, retryAfterSeconds, taken };
  }

  /**
   * The first take of a window clears the key's earlier windows. MongoDB's TTL index would do it on its own,
   * and the worker's housekeeping does on FerretDB; this keeps a busy key small between sweeps. Best effort and
   * off the request's path: a failure only leaves history.
   */
  private forgetOldWindows(key: string, current: Date): void {
    this.db.limitEntries.deleteMany({ key, window_start: { $lt: current } }).catch(() => undefined);
  }
}

const entryId = (key: string, windowStart: Date, seq: number) => `${key}@${windowStart.getTime()}#${seq}`;
const memoKey = (key: string, windowStart: Date) => `${key}@${windowStart.getTime()}`;

const MINUTE = 60;
const HOUR = 3_600;
const DAY = 86_400;

/** Every limit of the service, built once per process (composition/stores.ts), so each remembers its runs for all. */
export function limitStore(db: Database, config: Config) {
  const limit = (n: number, windowSeconds: number) => new Limit(db, { limit: n, windowSeconds });
  return {
    /** Each AI operation's own per-workspace limit (key `<workspace>/<operation>`). */
    ai: limit(config.AI_RATE_LIMIT, config.AI_RATE_LIMIT_WINDOW_SECONDS),
    /** Candidates accepted by call/initiate and interview/invite together. */
    candidates: limit(config.CANDIDATES_PER_HOUR, HOUR),
    /** Invitation and resend emails. */
    emails: limit(config.EMAILS_PER_DAY, DAY),
    resends: limit(config.INTERVIEW_RESENDS_PER_HOUR, HOUR),
    deliveryRetries: limit(config.DELIVERY_RETRIES_PER_MINUTE, MINUTE),
    listReads: limit(config.LIST_READS_PER_MINUTE, MINUTE),
    signIns: limit(config.SIGN_INS_PER_MINUTE, MINUTE),
    pagesPerIp: limit(config.PAGE_REQUESTS_PER_MINUTE_PER_IP, MINUTE),
    pagesPerLink: limit(config.PAGE_REQUESTS_PER_MINUTE_PER_LINK, MINUTE),
    /** Removes spent windows' entries (MongoDB's TTL index does it on its own; FerretDB 1.x has none). */
    async purgeExpired(now: Date): Promise<number> {
      return (await db.limitEntries.deleteMany({ expires_at: { $lte: now } })).deletedCount;
    },
  };
}

export type LimitStore = ReturnType<typeof limitStore>;
