import { isDuplicateKey } from './duplicate-key';
import type { Database } from './database';

/**
 * A fixed-window request budget kept in the database, so every API process shares one count. Each granted
 * request is a document whose _id is (bucket, window, slot number); a request takes the lowest free slot by
 * inserting it, and the unique _id index lets exactly one insert win each slot, on MongoDB and on FerretDB
 * alike. `$inc` on a counter would do on MongoDB, but FerretDB 1.x applies updates as an unisolated
 * read-then-write: measured, 20 concurrent upserting `$inc`s of one document left counts of 2 to 16.
 *
 * Windows are aligned to multiples of their length since the epoch (whole minutes for the default 60 s),
 * so every process agrees on them without coordination.
 */

export interface RateLimitDecision {
  bucket: string;
  allowed: boolean;
  limit: number;
  /** Requests still allowed in this window after this one. */
  remaining: number;
  /** When the current window ends and the budget is whole again. */
  resetAt: Date;
  /** Whole seconds until resetAt, at least 1. */
  retryAfterSeconds: number;
  /** The slot this request holds, so a request that failed on our side can give it back. */
  slotId?: string;
}

export interface RateLimitOptions {
  limit: number;
  windowSeconds: number;
}

export class RateLimiter {
  private readonly windowMs: number;

  constructor(
    private readonly db: Database,
    private readonly opts: RateLimitOptions,
  ) {
    this.windowMs = opts.windowSeconds * 1000;
  }

  /** Takes one request from `bucket`'s budget, or reports that none is left. */
  async consume(bucket: string, now = new Date()): Promise<RateLimitDecision> {
    const window = this.windowOf(now);
    for (let slot = 1; slot <= this.opts.limit; slot++) {
      const _id = slotId(bucket, window.start, slot);
      try {
        await this.db.rateLimits.insertOne({ _id, bucket, window_start: window.start, expires_at: window.end });
      } catch (err) {
        if (isDuplicateKey(err)) continue;
        throw err;
      }
      if (slot === 1) this.forgetOldWindows(bucket, window.start);
      return this.decision(bucket, true, this.opts.limit - slot, window, now, _id);
    }
    return this.decision(bucket, false, 0, window, now);
  }

  /** The budget as it stands, without spending any of it (for responses to requests that were refused earlier). */
  async peek(bucket: string, now = new Date()): Promise<RateLimitDecision> {
    const window = this.windowOf(now);
    const ids = Array.from({ length: this.opts.limit }, (_, i) => slotId(bucket, window.start, i + 1));
    const used = await this.db.rateLimits.countDocuments({ _id: { $in: ids } });
    return this.decision(bucket, used < this.opts.limit, this.opts.limit - used, window, now);
  }

  /** Gives a slot back, for requests that failed through no fault of the caller; returns the budget after it. */
  async refund(decision: RateLimitDecision, now = new Date()): Promise<RateLimitDecision> {
    if (decision.slotId) await this.db.rateLimits.deleteOne({ _id: decision.slotId });
    return this.peek(decision.bucket, now);
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
    slot?: string,
  ): RateLimitDecision {
    const retryAfterSeconds = Math.max(1, Math.ceil((window.end.getTime() - now.getTime()) / 1000));
    return {
      bucket,
      allowed,
      limit: this.opts.limit,
      remaining: Math.max(0, remaining),
      resetAt: window.end,
      retryAfterSeconds,
      slotId: slot,
    };
  }

  /**
   * The first request of a window clears the bucket's earlier windows. MongoDB's TTL index would do it on its
   * own; FerretDB has no TTL monitor. Best effort and off the request's path: a failure only leaves history.
   */
  private forgetOldWindows(bucket: string, current: Date): void {
    this.db.rateLimits.deleteMany({ bucket, window_start: { $lt: current } }).catch(() => undefined);
  }
}

function slotId(bucket: string, windowStart: Date, slot: number): string {
  return `${bucket}@${windowStart.getTime()}#${slot}`;
}
