import type { Middleware } from 'koa';
import type { Config } from '../infra/config';

/**
 * What every page answers with. Pages load only the service's own stylesheet and scripts: no inline script or
 * style, so the CSP allows none (no 'unsafe-inline'). Links carry tokens in their path (an interview's), so no
 * page sends a Referer to another site. Pages show a person's own data, so none is stored by a cache.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "script-src 'self'",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function pageHeaders(config: Pick<Config, 'PUBLIC_BASE_URL'>): Middleware {
  const https = config.PUBLIC_BASE_URL.startsWith('https:');
  return async (ctx, next) => {
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    // Our own pages and assets may see where a request came from (so a form's Origin is never "null"); no
    // other site sees a page's address, tokens and all.
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-store');
    if (https) ctx.set('Strict-Transport-Security', 'max-age=31536000');
    await next();
  };
}
