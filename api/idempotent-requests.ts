import type { Middleware } from 'koa';
import { fingerprintOf, type IdempotencyStore } from '../stores/idempotency';
import { ConflictError, IdempotencyKeyReusedError, ValidationError } from '../shared/errors';

/**
 * Idempotency-Key on the public API's POSTs, after authentication and the body's parsing. A request with a
 * key runs once: its successful answer is kept for 24 hours and given again, byte for byte with its status,
 * to a retry with the same key and the same request (`Idempotent-Replayed: true`). The same key with another
 * request is a 422; a retry while the first is still running is a 409. An error is not kept, so a request
 * that failed may be sent again with its key and runs again. Keys are the workspace's own.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Visible ASCII (as the OpenAPI document's pattern says). */
export const KEY_PATTERN = '^[!-~]{1,255}$';
const KEY = new RegExp(KEY_PATTERN);

/** The key as sent: a Structured Field string (`"…"`, as the draft writes it) or the bare token most clients send. */
function keyOf(header: string): string {
  const quoted = /^"(.*)"$/.exec(header);
  const key = quoted ? quoted[1] : header;
  if (!KEY.test(key)) {
    throw new ValidationError('Request validation failed', [
      { path: [IDEMPOTENCY_HEADER], message: 'must be 1 to 255 visible ASCII characters, such as a UUID' },
    ]);
  }
  return key;
}

export function idempotent(answers: IdempotencyStore): Middleware {
  return async (ctx, next) => {
    // Absent is no key; present but empty is a bad one.
    const header = ctx.headers['idempotency-key'];
    if (ctx.method !== 'POST' || header === undefined) return next();
    const key = keyOf(Array.isArray(header) ? header.join(',') : header);
    const fingerprint = fingerprintOf(ctx.method, ctx.url, JSON.stringify(ctx.request.body ?? null));
    const begun = await answers.begin(ctx.state.workspace._id, key, fingerprint);
    if (begun.kind === 'reused') throw new IdempotencyKeyReusedError();
    if (begun.kind === 'in_flight') {
      throw new ConflictError('A request with this Idempotency-Key is still being processed; retry it once that one has answered');
    }
    if (begun.kind === 'replay') {
      ctx.status = begun.stored.status;
      ctx.type = begun.stored.content_type;
      ctx.body = begun.stored.body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    try {
      await next();
    } catch (err) {
      await begun.abandon().catch(() => undefined);
      throw err;
    }
    // Sent as the very bytes that are kept, unless the answer holds a secret: then a route leaves the answer to
    // keep in `ctx.state.replayAnswer`, without it (a stored answer is no place for a webhook secret).
    const body = typeof ctx.body === 'string' ? ctx.body : JSON.stringify(ctx.body);
    const kept = ctx.state.replayAnswer === undefined ? body : JSON.stringify(ctx.state.replayAnswer);
    const contentType = ctx.response.get('Content-Type') || 'application/json; charset=utf-8';
    ctx.body = body;
    ctx.type = contentType;
    // The work is done and the answer says so: a failure to keep it costs only the replay (a retry runs again).
    await begun.finish({ status: ctx.status, contentType, body: kept }).catch((err: unknown) => {
      ctx.state.logger?.warn({ err }, 'idempotent response not kept');
      return begun.abandon().catch(() => undefined);
    });
  };
}
