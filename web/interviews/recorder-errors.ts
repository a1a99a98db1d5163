import type { Middleware } from 'koa';
import { asUnavailable } from '../../infra/unavailable';
import {
  DomainError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
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
      const [status, message] =
        error instanceof PayloadTooLargeError
          ? [413, `The recording is larger than ${sizeLabel(maxBytes)}. Record a shorter answer, or type it instead.`]
          : error instanceof UnsupportedMediaTypeError
            ? [415, `${error.message} Record again, or type your answer instead.`]
            : error instanceof NotFoundError
              ? [404, 'This interview or question does not exist.']
              : error instanceof ForbiddenError
                ? [403, error.message]
                : error instanceof ServiceUnavailableError
                  ? [503, 'The recording could not be saved just now. Please try again in a few seconds.']
                  : [500, 'The recording could not be saved. Please try again.'];
      if (status >= 500) ctx.state.logger?.error({ err }, 'recording upload failed');
      // The rest of a refused upload is not read: the connection closes instead of taking it.
      if (status === 413 || status === 415) ctx.set('Connection', 'close');
      ctx.status = status;
      ctx.body = { message };
    }
  };
}

/** A byte count as people say it: 25 MB, 500 KB. */
const sizeLabel = (bytes: number) =>
  bytes >= 1_000_000 ? `${Math.round(bytes / 1_000_000)} MB` : `${Math.max(1, Math.round(bytes / 1_000))} KB`;
