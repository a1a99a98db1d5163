import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Limit, LimitStore } from '../stores/limits';
import { RateLimitedError } from '../shared/errors';

/**
 * The per-address and per-link limits of the routes that take no API key (OWASP API4:2023). The address is
 * the peer's, or X-Forwarded-For's when TRUST_PROXY says a proxy in front sets it (Koa's `ctx.ip`). A link's
 * key is a digest of its token, so the token is kept nowhere new. Taken before anything is read, a body
 * included; refused, the page says when to come back (web/page-errors.tsx).
 */

/** `limit` per client address, under the key `ip:<address>/<name>`. */
export function perAddress(limit: Limit, name: string): Middleware {
  return async (ctx, next) => {
    await take(limit, addressKey(ctx, name));
    await next();
  };
}

/** The candidate's link: its own limit whoever sends it, and the address's limit of all the links it opens. */
export function linkLimits(limits: Pick<LimitStore, 'pagesPerIp' | 'pagesPerLink'>): Middleware {
  return async (ctx: Context, next) => {
    const token = String(ctx.params.token ?? '');
    await take(limits.pagesPerIp, addressKey(ctx, 'pages'));
    await take(limits.pagesPerLink, `link:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}/pages`);
    await next();
  };
}

const addressKey = (ctx: Context, name: string) => `ip:${ctx.ip || 'unknown'}/${name}`;

async function take(limit: Limit, key: string): Promise<void> {
  const decision = await limit.take(key);
  if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
}
