import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { RateLimiter } from '../infra/rate-limit';
import type { Budgets } from '../infra/budgets';
import { RateLimitedError } from '../shared/errors';

/**
 * The per-address and per-link limits of the routes that take no API key (OWASP API4:2023). The address is
 * the peer's, or X-Forwarded-For's when TRUST_PROXY says a proxy in front sets it (Koa's `ctx.ip`). A link's
 * bucket is named by a digest of its token, so the token is kept nowhere new. Spent before anything is read,
 * a body included; refused, the page says when to come back (web/page-errors.tsx).
 */

/** `budget` per client address, under the bucket `ip:<address>/<name>`. */
export function perAddress(limiter: RateLimiter, name: string): Middleware {
  return async (ctx, next) => {
    await spend(limiter, addressBucket(ctx, name));
    await next();
  };
}

/** The candidate's link: its own budget whoever sends it, and the address's budget of all the links it opens. */
export function linkLimits(budgets: Budgets): Middleware {
  return async (ctx: Context, next) => {
    const token = String(ctx.params.token ?? '');
    await spend(budgets.pagesPerIp, addressBucket(ctx, 'pages'));
    await spend(budgets.pagesPerLink, `link:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}/pages`);
    await next();
  };
}

const addressBucket = (ctx: Context, name: string) => `ip:${ctx.ip || 'unknown'}/${name}`;

async function spend(limiter: RateLimiter, bucket: string): Promise<void> {
  const decision = await limiter.consume(bucket);
  if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
}
