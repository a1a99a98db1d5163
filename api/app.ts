import Koa from 'koa';
import type Router from '@koa/router';
import { handleErrors, plainFamily } from './errors';
import { requestContext, traceRequests } from './middleware';
import { healthRoutes } from './health';
import { workspaceRoutes } from './workspaces/routes';
import { callRoutes } from './calls/routes';
import { interviewRoutes } from './interviews/routes';
import { projectRoutes } from './projects/routes';
import { aiRoutes } from './ai/routes';
import { providerRoutes } from './providers/routes';
import { referenceRoutes } from './openapi/routes';
import { webhookRoutes } from './webhooks/routes';
import { suppressionRoutes } from './suppressions/routes';
import { erasureRoutes } from './erasure/routes';
import { partnerRoutes } from './partners/routes';
import { greenhouseRoutes } from './partners/greenhouse';
import { ashbyRoutes } from './partners/ashby';
import type { ApiDeps, RouteFactory } from './deps';

/** Every route module of the public API, in the order they are mounted. */
export const ROUTES: RouteFactory[] = [
  healthRoutes,
  referenceRoutes,
  workspaceRoutes,
  providerRoutes,
  callRoutes,
  interviewRoutes,
  projectRoutes,
  aiRoutes,
  webhookRoutes,
  suppressionRoutes,
  erasureRoutes,
  partnerRoutes,
  greenhouseRoutes,
  ashbyRoutes,
];

/**
 * The HTTP API. Each route module brings its own error family, auth and body parsing. `pages` are the routers
 * of the pages people open (web/, wired in composition/), served by the same server under their own paths.
 */
export function createApp(deps: ApiDeps, pages: Router[] = []): Koa {
  // X-Forwarded-* are a client's word unless proxies in front are trusted to set them (TRUST_PROXY, their
  // number). Koa's `ctx.ip` is then the entry that many hops from the right, which the outermost proxy wrote.
  const hops = deps.config.TRUST_PROXY;
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  app.silent = true; // errors are logged by the error middleware with their request id
  // First, so the request's log line is written inside its span and carries its ids.
  if (deps.config.OTEL_EXPORTER_OTLP_ENDPOINT) app.use(traceRequests((key) => deps.stores.workspaces.authenticateKey(key)));
  app.use(requestContext(deps.logger));
  // An answer holds a workspace's data: no cache keeps it, and no browser reads it as another type. A route
  // whose answer may be kept (the reference, the pages' assets) says so itself.
  app.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  });
  app.use(handleErrors(plainFamily));
  // A router answers a wrong method on its way back out, after the fallback below ran. Any method not allowed
  // on a known path, including one the router implements nowhere (TRACE, CONNECT…, which it answers 501), is
  // the client's mistake: 405 with the router's Allow header and a JSON body that says so. A 501 that allows
  // nothing is a path no route has: 404.
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 501 && !ctx.response.get('Allow')) {
      ctx.remove('Allow');
      notFound(ctx);
    } else if (ctx.status === 405 || ctx.status === 501) {
      ctx.status = 405;
      ctx.body = { success: false, message: `Method ${ctx.method} not allowed on ${ctx.path}` };
    }
  });
  for (const router of [...ROUTES.map((factory) => factory(deps)), ...pages]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  // Whatever no route answered still gets a JSON body.
  app.use(async (ctx) => {
    if (ctx.body === undefined) notFound(ctx);
  });
  return app;
}

function notFound(ctx: Koa.Context): void {
  ctx.status = 404;
  ctx.body = { success: false, message: `Not found: ${ctx.method} ${ctx.path}` };
}
