import type { Context, Middleware } from 'koa';
import type { RateLimitDecision, RateLimiter } from '../../infra/rate-limit';
import { RateLimitedError, ValidationError } from '../../shared/errors';
import type { WorkspaceDoc } from '../../infra/records/workspaces';

/**
 * The workspace budget of one rate-limited operation. `reportBudget` goes right after authentication and puts
 * the X-RateLimit-* headers on every response, whatever ends the request; `spendBudget` runs the operation
 * only if a request is left, after validation, so refused requests cost nothing. A request that fails on our
 * side (the language model is down or answers nonsense) gets its slot back.
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
    if (!(err instanceof ValidationError)) ctx.state.rateLimit = await limiter.refund(decision).catch(() => decision);
    throw err;
  }
}

function budgetBucket(ctx: Context, operation: string): string {
  return `${(ctx.state.workspace as WorkspaceDoc)._id}/${operation}`;
}
