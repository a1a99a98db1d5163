import type { Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../infra/logger';
import { InvalidJsonError, PayloadTooLargeError, UnauthorizedError } from '../shared/errors';
import type { WorkspaceDoc } from '../infra/documents/workspaces';
import { loggablePath } from '../shared/public-urls';
import { httpRequestDuration, oneOf } from '../infra/metrics';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The methods a route may answer; anything else a client sends is `other` in the metrics' labels. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** The route's template (`/api/public/v1/calls/:id`), never the path itself, which holds ids. */
const routeOf = (ctx: object) => {
  const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  return route === undefined ? 'unmatched' : String(route);
};

/**
 * Gives every request an id (the caller's `x-request-id` when it is sane), echoes it on the response, binds it
 * to a child logger and writes one structured line per request when the response is done.
 */
export function requestContext(logger: Logger): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    const log = (ctx.state.logger = logger.child({ request_id: requestId }));
    ctx.set('x-request-id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      httpRequestDuration.observe({ method: oneOf(ctx.method, METHODS), route: routeOf(ctx), status_code: ctx.status }, ms / 1e3);
      log.info(
        {
          method: ctx.method,
          path: loggablePath(ctx.path),
          status: ctx.status,
          ms: Math.round(ms * 10) / 10,
          // Set only on the routes that take an API key.
          workspace_id: ctx.state.workspace?._id,
        },
        'request',
      );
    }
  };
}

/** The routes that take a workspace's API key: the public API, but for the providers' callbacks. */
const keyedRoute = (path: string) => /^\/api\/public\/v1\//i.test(path) && !/^\/api\/public\/v1\/providers\//i.test(path);

/**
 * The request's server span, named for its route's template, so a trace leads from the ATS's request through
 * the workflow it started to the providers' calls. Mounted only when tracing is on (docs/tracing.md);
 * everything after it runs in the span.
 *
 * A caller's `traceparent` (W3C trace context, the one propagator registered: infra/tracing.ts) is taken only
 * on a route that takes an API key, and only with a key that authenticates; pages, provider callbacks and
 * anyone else start a trace of their own, so no one outside can join their spans to a trace of theirs or
 * flood one. The key is checked here only when a `traceparent` came, and its answer kept for the route's
 * own authentication, so it is read once.
 */
export function traceRequests(authenticate: ResolveKey): Middleware {
  const tracer = trace.getTracer('hiring-integration/api');
  return async (ctx, next) => {
    let parent = ROOT_CONTEXT;
    if (ctx.get('traceparent') && keyedRoute(ctx.path)) {
      const caller = await authenticate(ctx.get('x-service-api-key') || undefined).catch(() => undefined);
      // Unknown when the lookup failed: the route's authentication asks again and answers for it.
      if (caller !== undefined) ctx.state.authenticated = caller;
      if (caller) parent = propagation.extract(ROOT_CONTEXT, ctx.headers);
    }
    const span = tracer.startSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': loggablePath(ctx.path) } },
      parent,
    );
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      const route = routeOf(ctx);
      span.updateName(`${oneOf(ctx.method, METHODS)} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': ctx.status });
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}

/** The deepest nesting a JSON body may have: more is no one's data, and deeper would exhaust the stack. */
export const MAX_JSON_DEPTH = 64;

/** Refuses a parsed body nested deeper than MAX_JSON_DEPTH, walked without recursion. */
function checkDepth(value: unknown): void {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [v, depth] = pending.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_JSON_DEPTH) throw new InvalidJsonError(`Invalid JSON in request body: nested deeper than ${MAX_JSON_DEPTH} levels`);
    for (const child of Object.values(v)) pending.push([child, depth + 1]);
  }
}

/** Parses any request body as JSON, whatever its Content-Type says; failures become typed errors. */
export function parseJson(limit: string): Middleware {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: limit,
    strict: true,
    detectJSON: () => true,
    onerror: (err: Error & { status?: number; type?: string }) => {
      throw err.status === 413 || err.type === 'entity.too.large' ? new PayloadTooLargeError(limit) : new InvalidJsonError();
    },
  });
  return (ctx, next) =>
    parse(ctx, async () => {
      checkDepth(ctx.request.body);
      await next();
    });
}

/** An API key presented, resolved to its workspace and the key's own id; null when it authenticates nothing. */
export type ResolveKey = (key: string | undefined) => Promise<{ workspace: Readonly<WorkspaceDoc>; keyId: string } | null>;

/** Resolves `x-service-api-key` to the caller's workspace and key, or throws UnauthorizedError. */
export function authenticateWith(resolve: ResolveKey): Middleware {
  return async (ctx, next) => {
    // Already looked up when the request came with a trace context to join (traceRequests).
    const caller =
      ctx.state.authenticated !== undefined ? ctx.state.authenticated : await resolve(ctx.get('x-service-api-key') || undefined);
    if (!caller) throw new UnauthorizedError();
    ctx.state.workspace = caller.workspace;
    ctx.state.apiKeyId = caller.keyId;
    await next();
  };
}

const UNITS = { b: 1, kb: 1024, mb: 1024 * 1024 } as const;

/**
 * Reads the body as bytes into `ctx.state.rawBody`, for callbacks whose signature covers the exact bytes sent;
 * they are parsed only after the signature checks out.
 */
export function readRawBody(limit: string): Middleware {
  const [, n, unit] = /^([0-9]+)(b|kb|mb)$/.exec(limit)!;
  const max = Number(n) * UNITS[unit as keyof typeof UNITS];
  return async (ctx, next) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) throw new PayloadTooLargeError(limit);
      chunks.push(chunk);
    }
    ctx.state.rawBody = Buffer.concat(chunks);
    await next();
  };
}

/** Parses a body read by readRawBody as JSON. */
export function parseRawJson(raw: Buffer): unknown {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new InvalidJsonError();
  }
  checkDepth(value);
  return value;
}
