import type { Middleware } from 'koa';

/**
 * What every page answers with. Pages load only the service's own stylesheet and scripts: no inline script or
 * style, so the CSP allows none (no 'unsafe-inline'). Links carry tokens in their path (an interview's), so no
 * page sends a Referer. Pages show a person's own data, so none is stored by a cache.
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

export const pageHeaders: Middleware = async (ctx, next) => {
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-store');
  await next();
};
