import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import { CounterTally, EntryTally, type Tally, type Window } from './limit-tallies';

/**
 * The service's limits (OWASP API4:2023): each is at most `limit` requests (or candidates, emails…) under one
 * key (`<workspace>/<name>`, `ip:<address>/<name>`, `link:<digest>/<name>`) per fixed window, counted in the
 * database so every process takes from one count, exactly, whatever the concurrency (stores/limit-tallies.ts:
 * an atomic counter on MongoDB, a run of inserted entries on FerretDB). Windows are aligned to multiples of
 * their length since the epoch (whole minutes, hours, UTC days), so every process agrees on them without
 * coordination. Spent windows are removed by MongoDB's TTL index, or the worker's housekeeping on FerretDB,
 * never on a request's path.
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

export class Limit {
  private readonly windowMs: number;
  private readonly tally: Tally;

  /** `clock`: the time a request is counted at (tests hold it inside one window: test/helpers/limit-clock.ts). */
  constructor(
    db: Database,
    private readonly opts: { limit: number; windowSeconds: number; tally?: 'counter' | 'entries' },
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.windowMs = opts.windowSeconds * 1000;
    const kind = opts.tally ?? (db.engine === 'mongodb' ? 'counter' : 'entries');
    this.tally = kind === 'counter' ? new CounterTally(db.limitEntries) : new EntryTally(db.limitEntries);
  }

  /** Takes `amount` under `key`, all of it or, when less is left, none. */
  async take(key: string, now = this.clock(), amount = 1): Promise<LimitDecision> {
    const window = this.windowOf(now);
    const { granted, total } = await this.tally.add(key, window, amount, this.opts.limit);
    if (!granted) return this.decision(key, false, this.opts.limit - total, window, now);
    return this.decision(key, true, this.opts.limit - total, window, now, { amount, windowStart: window.start });
  }

  /** The limit as it stands under `key`, taking nothing. */
  async peek(key: string, now = this.clock()): Promise<LimitDecision> {
    const window = this.windowOf(now);
    const total = await this.tally.total(key, window);
    return this.decision(key, total < this.opts.limit, this.opts.limit - total, window, now);
  }

  /** Gives back what a request took, for requests that failed through no fault of the caller; the limit after it. */
  async giveBack(decision: LimitDecision, now = this.clock()): Promise<LimitDecision> {
    const taken = decision.taken;
    if (taken) {
      const start = taken.windowStart.getTime();
      await this.tally.add(decision.key, { start: taken.windowStart, end: new Date(start + this.windowMs) }, -taken.amount, null);
    }
    return this.peek(decision.key, now);
  }

  private windowOf(now: Date): Window {
    const start = Math.floor(now.getTime() / this.windowMs) * this.windowMs;
    return { start: new Date(start), end: new Date(start + this.windowMs) };
  }

  private decision(key: string, allowed: boolean, remaining: number, window: { end: Date }, now: Date, taken?: LimitDecision['taken']) {
    const retryAfterSeconds = Math.max(1, Math.ceil((window.end.getTime() - now.getTime()) / 1000));
    const limit = this.opts.limit;
    return { key, allowed, limit, remaining: Math.min(limit, Math.max(0, remaining)), resetAt: window.end, retryAfterSeconds, taken };
  }
}

const MINUTE = 60;
const HOUR = 3_600;
const DAY = 86_400;

/**
 * Every limit of the service, built once per process (composition/stores.ts), so each remembers its runs for all.
 * `clock`: the time requests are counted at, the real one but in tests that hold their requests in one window.
 */
export function limitStore(db: Database, config: Config, clock?: () => Date) {
  const limit = (n: number, windowSeconds: number) => new Limit(db, { limit: n, windowSeconds }, clock);
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
    erasures: limit(config.ERASURES_PER_MINUTE, MINUTE),
    reviews: limit(config.REVIEWS_PER_MINUTE, MINUTE),
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
