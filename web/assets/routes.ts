import { createHash } from 'node:crypto';
import Router from '@koa/router';
import { STYLESHEET } from './stylesheet';

/** The stylesheet's URL names its content, so it may be cached for good and still change with a release. */
const version = createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 12);
export const STYLESHEET_PATH = `/assets/style-${version}.css`;

export function assetRoutes(): Router {
  const router = new Router();
  router.get(STYLESHEET_PATH, (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = STYLESHEET;
  });
  return router;
}
