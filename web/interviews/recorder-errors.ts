import type { Middleware } from 'koa';
import { asUnavailable } from '../../infra/unavailable';
import {
  DomainError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  RequestTimeoutError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
} from '../../shared/errors';

/**
 * The error family of the one request a page's script makes, the upload of a recorded answer: the same typed
 * errors, as `{message}` bodies the page shows the candidate as they are.
 */
export function recorderErrors(maxBytes: number): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const error = err instanceof DomainError ? err : (asUnavailable(err) ?? err);
      const [status, message] = refusal(error, maxBytes);
      if (status >= 500 && status !== 503) ctx.state.logger?.error({ err }, 'recording upload failed');
      if (error instanceof RateLimitedError || error instanceof ServiceUnavailableError)
        ctx.set('Retry-After', String(error.retryAfterSeconds));
      // The rest of a refused upload is not read: the connection closes instead of taking it.
      if (status !== 500) ctx.set('Connection', 'close');
      ctx.status = status;
      ctx.body = { message };
    }
  };
}

function refusal(error: unknown, maxBytes: number): [number, string] {
  if (error instanceof PayloadTooLargeError && error.of === 'interview')
    return [413, "This interview's recordings have reached their size limit. Please type this answer instead."];
  if (error instanceof PayloadTooLargeError)
    return [413, `The recording is larger than ${sizeLabel(maxBytes)}. Record a shorter answer, or type it instead.`];
  if (error instanceof UnsupportedMediaTypeError) return [415, `${error.message} Record again, or type your answer instead.`];
  if (error instanceof NotFoundError) return [404, 'This interview or question does not exist.'];
  if (error instanceof ForbiddenError || error instanceof ConflictError) return [error instanceof ConflictError ? 409 : 403, error.message];
  if (error instanceof RequestTimeoutError)
    return [408, 'The recording arrived too slowly and was stopped. Check your connection and submit it again.'];
  if (error instanceof RateLimitedError) return [429, 'Too many requests from this page. Please wait a minute and submit again.'];
  if (error instanceof ServiceUnavailableError)
    return [503, 'The recording could not be saved just now. Please try again in a few seconds.'];
  return [500, 'The recording could not be saved. Please try again.'];
}

/** A byte count as people say it: 25 MB, 500 KB. */
const sizeLabel = (bytes: number) =>
  bytes >= 1_000_000 ? `${Math.round(bytes / 1_000_000)} MB` : `${Math.max(1, Math.round(bytes / 1_000))} KB`;
