import type { Middleware } from 'koa';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  ValidationError,
} from '../shared/errors';
import { asUnavailable } from '../infra/unavailable';
import { MessagePage, sendPage } from './layout';

/**
 * The pages' error family: the same typed errors as everywhere (shared/errors.ts), rendered once, here, as
 * pages a person reads. An unknown id and another workspace's are the same "not found".
 */
export const renderPageErrors: Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    const error = err instanceof DomainError ? err : (asUnavailable(err) ?? err);
    if (error instanceof NotFoundError) {
      return sendPage(
        ctx,
        404,
        <MessagePage title="Page not found">
          <p>There is nothing at this address. Check the link you were given, or ask whoever sent it.</p>
        </MessagePage>,
      );
    }
    if (error instanceof ForbiddenError) {
      return sendPage(
        ctx,
        403,
        <MessagePage title="This form was not sent from its page">
          <p>{error.message} Go back, reload the page, and send it again.</p>
        </MessagePage>,
      );
    }
    // A dashboard form's fields that break the API's own rules (the same schema), and a change refused as it stands.
    if (error instanceof ValidationError) {
      return sendPage(
        ctx,
        400,
        <MessagePage title="Please check the form">
          <ul>
            {error.issues.map((i) => (
              <li>
                {i.path.join('.') || 'form'}: {i.message}
              </li>
            ))}
          </ul>
          <p>Go back, correct it, and send it again.</p>
        </MessagePage>,
      );
    }
    if (error instanceof ConflictError) {
      return sendPage(
        ctx,
        409,
        <MessagePage title="That could not be done now">
          <p>{error.message}.</p>
        </MessagePage>,
      );
    }
    if (error instanceof RateLimitedError) {
      ctx.set('Retry-After', String(error.retryAfterSeconds));
      const wait = error.retryAfterSeconds <= 60 ? 'a minute' : 'a while';
      return sendPage(
        ctx,
        429,
        <MessagePage title="Too many requests">
          <p>This page was asked for too often. Please wait {wait} and reload it; nothing you did was lost.</p>
        </MessagePage>,
      );
    }
    // The form reader's own refusals (a body too large, or not a form), which say their status.
    const status = (err as { status?: unknown; expose?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: unknown }).expose) {
      return sendPage(
        ctx,
        status,
        <MessagePage title={status === 413 ? 'That was too long' : 'That could not be read'}>
          <p>
            {status === 413
              ? 'What you sent is larger than this form takes. Go back and shorten it.'
              : 'Go back, reload the page, and send it again.'}
          </p>
        </MessagePage>,
      );
    }
    if (error instanceof ServiceUnavailableError) {
      ctx.set('Retry-After', String(error.retryAfterSeconds));
      ctx.state.logger?.warn({ dependency: error.dependency, err: String(err) }, 'dependency unavailable');
      return sendPage(
        ctx,
        503,
        <MessagePage title="Back in a moment">
          <p>This page is briefly unavailable. Please reload it in a few seconds; nothing you did was lost.</p>
        </MessagePage>,
      );
    }
    ctx.state.logger?.error({ err }, 'page failed');
    sendPage(
      ctx,
      500,
      <MessagePage title="Something went wrong">
        <p>
          This page could not be shown. Please try again; if it keeps happening, quote this reference: {String(ctx.state.requestId ?? '')}.
        </p>
      </MessagePage>,
    );
  }
};
