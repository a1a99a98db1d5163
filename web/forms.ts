import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { ForbiddenError } from '../shared/errors';

/**
 * A page's form post: URL-encoded fields only, and small. A typed answer is at most 10,000 characters, which
 * percent-encoded UTF-8 can make 120 KB (4 bytes a character, 3 characters a byte).
 */
export const formBody: Middleware = bodyParser({ enableTypes: ['form'], formLimit: '160kb' });

/**
 * Refuses a form post that another site made (cross-site request forgery), by what the browser says of where
 * it comes from, which a page cannot forge. `Sec-Fetch-Site` first: every current browser sends it to https
 * and to localhost. Else `Origin`, which must be our own: our pages send `Referrer-Policy: same-origin`, so a
 * browser posting one of our forms names our origin, and "null" (a sandboxed frame, a data: page, a redirect
 * from elsewhere) is refused. A post with neither (a client that is no browser) carries no one's cookies, so
 * it forges nothing.
 */
export const sameOrigin: Middleware = async (ctx, next) => {
  const site = ctx.get('Sec-Fetch-Site');
  const origin = ctx.get('Origin');
  // The service's own origin, from the request's protocol and Host (Koa's `ctx.origin` echoes Origin).
  const own = `${ctx.protocol}://${ctx.host}`;
  const crossSite = origin === 'null' || (site ? site !== 'same-origin' && site !== 'none' : origin !== '' && origin !== own);
  if (crossSite) throw new ForbiddenError('This form can only be sent from its own page.');
  await next();
};
