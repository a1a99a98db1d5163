import { createHash } from 'node:crypto';
import Router from '@koa/router';
import { STYLESHEET } from './stylesheet';
import { COUNTDOWN_SCRIPT } from './countdown';
import { RECORDER_SCRIPT } from './recorder';
import { LIVE_SCRIPT } from './live';
import { LIVE_CAPTURE_SCRIPT } from './live-capture';

/** An asset's URL names its content, so it may be cached for good and still change with a release. */
const versioned = (name: string, ext: string, content: string) =>
  `/assets/${name}-${createHash('sha256').update(content).digest('hex').slice(0, 12)}.${ext}`;
export const STYLESHEET_PATH = versioned('style', 'css', STYLESHEET);
export const COUNTDOWN_PATH = versioned('countdown', 'js', COUNTDOWN_SCRIPT);
export const RECORDER_PATH = versioned('recorder', 'js', RECORDER_SCRIPT);
export const LIVE_PATH = versioned('live', 'js', LIVE_SCRIPT);
export const LIVE_CAPTURE_PATH = versioned('live-capture', 'js', LIVE_CAPTURE_SCRIPT);

const ASSETS: Array<[path: string, type: string, body: string]> = [
  [STYLESHEET_PATH, 'text/css; charset=utf-8', STYLESHEET],
  [COUNTDOWN_PATH, 'text/javascript; charset=utf-8', COUNTDOWN_SCRIPT],
  [RECORDER_PATH, 'text/javascript; charset=utf-8', RECORDER_SCRIPT],
  [LIVE_PATH, 'text/javascript; charset=utf-8', LIVE_SCRIPT],
  [LIVE_CAPTURE_PATH, 'text/javascript; charset=utf-8', LIVE_CAPTURE_SCRIPT],
];

export function assetRoutes(): Router {
  const router = new Router();
  for (const [path, type, body] of ASSETS) {
    router.get(path, (ctx) => {
      ctx.type = type;
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.body = body;
    });
  }
  return router;
}
