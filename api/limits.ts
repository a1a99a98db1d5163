import type { Context, Middleware } from 'koa';
import type { Limit, LimitDecision, LimitStore } from '../stores/limits';
import { RateLimitedError, ValidationError } from '../shared/errors';
import { asUnavailable } from '../infra/unavailable';

/**
 * Taking from the workspace's limits (stores/limits.ts) in the routes. A limit is taken from after
 * validation, so a request refused for its own mistakes costs nothing, and given back when the request fails
 * after all.
 */

/** One limit a request takes from: the limit, its name in the key and the 429, and how much. */
export interface Take {
  limit: Limit;
  /** The key's name after the workspace (`<workspace>/<name>`). */
  name: string;
  amount?: number;
  /** What the limit counts, for the 429's message: "candidates per hour". */
  counts: string;
}

/** The limit of the expensive list reads: projects with their tallies, deliveries filtered by status. */
export const listReads = (limits: Pick<LimitStore, 'listReads'>): Take => ({
  limit: limits.listReads,
  name: 'list-reads',
  counts: 'expensive list reads per minute',
});

/**
 * Takes from every limit in turn, then runs the operation. When one refuses, what the earlier ones took is
 * given back and the request is a 429 whose Retry-After is that limit's window end. When the operation
 * throws, everything is given back: nothing was accepted.
 */
export async function withinLimits<T>(ctx: Context, takes: Take[], run: () => Promise<T>): Promise<T> {
  const taken: Array<{ limit: Limit; decision: LimitDecision }> = [];
  const giveBack = () => Promise.all(taken.map(({ limit, decision }) => limit.giveBack(decision).catch(() => undefined)));
  for (const take of takes) {
    const amount = take.amount ?? 1;
    const decision = await take.limit.take(keyOf(ctx, take.name), undefined, amount);
    if (!decision.allowed) {
      await giveBack();
      const asked = amount === 1 ? '' : `; this request has ${amount}`;
      // The words clients have read since the first release ("budget"), kept as they are.
      throw new RateLimitedError(
        decision.retryAfterSeconds,
        `This workspace's budget of ${decision.limit} ${take.counts} has ${decision.remaining} left${asked}. ` +
          `Try again after ${decision.resetAt.toISOString()}.`,
      );
    }
    taken.push({ limit: take.limit, decision });
  }
  try {
    return await run();
  } catch (err) {
    await giveBackAfter(err, giveBack);
    throw err;
  }
}

/**
 * Gives back what a failed request took. With the database unreachable, giving back would wait out its
 * timeout a second time: the request answers its 503 now, and the give-back runs on its own (lost if the
 * database is still away).
 */
async function giveBackAfter(err: unknown, giveBack: () => Promise<unknown>): Promise<void> {
  if (asUnavailable(err)) void giveBack().catch(() => undefined);
  else await giveBack();
}

/**
 * The AI operations' limits (the spec's 5 per minute). `reportLimit` goes right after authentication and puts
 * the X-RateLimit-* headers on every response, whatever ends the request; `takeLimit` runs the operation only
 * if a request is left, after validation, so refused requests cost nothing. A request that fails on our side
 * (the language model is down or answers nonsense) gets its place back; one the model declined keeps its cost.
 */
export function reportLimit(limit: Limit, operation: string): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const decision: LimitDecision | null = ctx.state.rateLimit ?? (await limit.peek(keyOf(ctx, operation)).catch(() => null));
      if (decision) {
        ctx.set('X-RateLimit-Limit', String(decision.limit));
        ctx.set('X-RateLimit-Remaining', String(decision.remaining));
        ctx.set('X-RateLimit-Reset', String(Math.ceil(decision.resetAt.getTime() / 1000)));
      }
    }
  };
}

export async function takeLimit<T>(ctx: Context, limit: Limit, operation: string, run: () => Promise<T>): Promise<T> {
  const decision = await limit.take(keyOf(ctx, operation));
  ctx.state.rateLimit = decision;
  if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
  try {
    return await run();
  } catch (err) {
    // A refusal is about the caller's text and keeps its cost; our own failures do not.
    if (!(err instanceof ValidationError)) {
      await giveBackAfter(err, async () => (ctx.state.rateLimit = await limit.giveBack(decision).catch(() => decision)));
    }
    throw err;
  }
}

const keyOf = (ctx: Context, name: string) => `${ctx.state.workspace._id}/${name}`;
