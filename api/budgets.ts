import type { Context, Middleware } from 'koa';
import type { RateLimitDecision, RateLimiter } from '../infra/rate-limit';
import { RateLimitedError, ValidationError } from '../shared/errors';
import { asUnavailable } from '../infra/unavailable';
import type { WorkspaceDoc } from '../infra/records/workspaces';
import type { Budgets } from '../infra/budgets';

/**
 * Spending the workspace's budgets (infra/budgets.ts) in the routes. A budget is spent after validation, so a
 * request refused for its own mistakes costs nothing, and given back when the request fails after all.
 */

/** One budget a request spends from: the limiter, the budget's name in the bucket and the 429, and how much. */
export interface Spend {
  limiter: RateLimiter;
  /** The bucket's name after the workspace (`<workspace>/<name>`). */
  name: string;
  amount?: number;
  /** What the budget counts, for the 429's message: "candidates per hour". */
  counts: string;
}

/** The budget of the expensive list reads: projects with their tallies, deliveries filtered by status. */
export const listReads = (deps: { budgets: Budgets }): Spend => ({
  limiter: deps.budgets.listReads,
  name: 'list-reads',
  counts: 'expensive list reads per minute',
});

/**
 * Spends every budget in turn, then runs the operation. When one refuses, what the earlier ones took is given
 * back and the request is a 429 whose Retry-After is that budget's window end. When the operation throws,
 * everything is given back: nothing was accepted.
 */
export async function withinBudgets<T>(ctx: Context, spends: Spend[], run: () => Promise<T>): Promise<T> {
  const taken: Array<{ limiter: RateLimiter; decision: RateLimitDecision }> = [];
  const giveBack = () => Promise.all(taken.map(({ limiter, decision }) => limiter.refund(decision).catch(() => undefined)));
  for (const spend of spends) {
    const amount = spend.amount ?? 1;
    const decision = await spend.limiter.consume(budgetBucket(ctx, spend.name), new Date(), amount);
    if (!decision.allowed) {
      await giveBack();
      const asked = amount === 1 ? '' : `; this request has ${amount}`;
      throw new RateLimitedError(
        decision.retryAfterSeconds,
        `This workspace's budget of ${decision.limit} ${spend.counts} has ${decision.remaining} left${asked}. ` +
          `Try again after ${decision.resetAt.toISOString()}.`,
      );
    }
    taken.push({ limiter: spend.limiter, decision });
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
 * The AI operations' budgets (the spec's 5 per minute). `reportBudget` goes right after authentication and
 * puts the X-RateLimit-* headers on every response, whatever ends the request; `spendBudget` runs the
 * operation only if a request is left, after validation, so refused requests cost nothing. A request that
 * fails on our side (the language model is down or answers nonsense) gets its slot back; one the model
 * declined keeps its cost.
 */
export function reportBudget(limiter: RateLimiter, operation: string): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const decision: RateLimitDecision | null =
        ctx.state.rateLimit ?? (await limiter.peek(budgetBucket(ctx, operation)).catch(() => null));
      if (decision) {
        ctx.set('X-RateLimit-Limit', String(decision.limit));
        ctx.set('X-RateLimit-Remaining', String(decision.remaining));
        ctx.set('X-RateLimit-Reset', String(Math.ceil(decision.resetAt.getTime() / 1000)));
      }
    }
  };
}

export async function spendBudget<T>(ctx: Context, limiter: RateLimiter, operation: string, run: () => Promise<T>): Promise<T> {
  const decision = await limiter.consume(budgetBucket(ctx, operation));
  ctx.state.rateLimit = decision;
  if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
  try {
    return await run();
  } catch (err) {
    // A refusal is about the caller's text and keeps its cost; our own failures do not.
    if (!(err instanceof ValidationError)) {
      await giveBackAfter(err, async () => (ctx.state.rateLimit = await limiter.refund(decision).catch(() => decision)));
    }
    throw err;
  }
}

function budgetBucket(ctx: Context, name: string): string {
  return `${(ctx.state.workspace as WorkspaceDoc)._id}/${name}`;
}
