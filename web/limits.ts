import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Limit, LimitStore } from '../stores/limits';
import { NotFoundError, RateLimitedError } from '../shared/errors';
import { addressBucket, clientAddress } from './client-address';

/**
 * The per-address and per-link limits of the routes that take no API key (OWASP API4:2023). The address is
 * the peer's, or the one the proxies in front wrote into X-Forwarded-For when TRUST_PROXY says how many there
 * are (Koa's `ctx.ip`); an IPv6 client is limited by its /64 (web/client-address.ts). A link's key is a
 * digest of its token, so the token is kept nowhere new. Refused, the page says when to come back
 * (web/page-errors.tsx).
 */

/** `limit` per client address, under the key `ip:<bucket>/<name>`, taken before anything is read. */
export function perAddress(limit: Limit, name: string): Middleware {
  return async (ctx, next) => {
    await take(limit, addressKey(ctx, name));
    await next();
  };
}

/**
 * `limit` per client address for failures only (a sign-in): taken before anything is read, so concurrent
 * requests never pass it together, and given back once the request succeeded (a status below 400).
 */
export function perAddressFailures(limit: Limit, name: string): Middleware {
  return async (ctx, next) => {
    const decision = await limit.take(addressKey(ctx, name));
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
    await next();
    if (ctx.status < 400) await limit.giveBack(decision);
  };
}

/**
 * A candidate's link (`/interview/…`, `/u/…`): its own limit whoever sends it, taken before anything is read.
 * The address's limit is spent only by links that turn out unknown (a guess), so the many candidates behind
 * one office address never lock each other out of their real links; past it, an unknown link is a 429, not
 * a 404. Guessing a link stays hopeless anyway (an interview link holds 256 random bits, an unsubscribe link a MAC); the limit bounds its cost.
 */
export function linkLimits(limits: Pick<LimitStore, 'pagesPerIp' | 'pagesPerLink'>): Middleware {
  return async (ctx: Context, next) => {
    await takeLink(limits, String(ctx.params.token ?? ''));
    try {
      await next();
    } catch (err) {
      if (err instanceof NotFoundError) await takeUnknownLink(limits, ctx);
      throw err;
    }
  };
}

/** A link's own limit (linkLimits), also taken by a live interview's socket before its upgrade. */
export const takeLink = (limits: Pick<LimitStore, 'pagesPerLink'>, token: string) =>
  take(limits.pagesPerLink, `link:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}/pages`);

/** The address's limit, spent by a link that turned out unknown (linkLimits, and a live socket's upgrade). */
export const takeUnknownLink = (limits: Pick<LimitStore, 'pagesPerIp'>, ctx: Pick<Context, 'ip' | 'req'>) =>
  take(limits.pagesPerIp, addressKey(ctx, 'pages'));

const addressKey = (ctx: Pick<Context, 'ip' | 'req'>, name: string) =>
  `ip:${addressBucket(clientAddress(ctx.ip, ctx.req.socket.remoteAddress ?? ''))}/${name}`;

async function take(limit: Limit, key: string): Promise<void> {
  const decision = await limit.take(key);
  if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
}
