import type { Context, Middleware } from 'koa';
import { asUnavailable } from '../infra/unavailable';
import {
  DomainError,
  ValidationError,
  InvalidJsonError,
  UnauthorizedError,
  NotFoundError,
  RateLimitedError,
  PayloadTooLargeError,
  ConflictError,
  UpstreamError,
  SignatureError,
  ForbiddenError,
  IdempotencyKeyReusedError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  dottedPath,
  bracketPath,
} from '../shared/errors';
import type { CallFamilyBody, JobFamilyBody, PlainFamilyBody } from './error-bodies';

/**
 * Maps error values to HTTP, once per operation family. The spec gives the call operations and the
 * job operations (parse-jd, invite) different error shapes; each family renders every error its own way.
 */
export interface ErrorFamily<Body = CallFamilyBody | JobFamilyBody | PlainFamilyBody> {
  name: string;
  render(error: DomainError): { status: number; body: Body } | null;
  internal(): { status: number; body: Body };
}

const upstreamStatus = (error: UpstreamError) => (error.retryable ? 503 : 502);
/** A provider's outage is usually over sooner than a rate-limit window; every 503 says when to come back. */
const UPSTREAM_RETRY_AFTER_SECONDS = 5;

/** call/initiate, campaigns and call status: `{success:false, code, message, errors:[{field, message}]}`. */
export const callFamily: ErrorFamily<CallFamilyBody> = {
  name: 'calls',
  render(error) {
    if (error instanceof ValidationError) {
      return {
        status: 400,
        body: {
          success: false,
          code: 'VALIDATION_ERROR',
          message: error.message,
          errors: error.issues.map((i) => ({ field: dottedPath(i.path), message: i.message })),
        },
      };
    }
    if (error instanceof InvalidJsonError) {
      return {
        status: 400,
        body: {
          success: false,
          code: 'VALIDATION_ERROR',
          message: 'Request validation failed',
          errors: [{ field: 'body', message: error.message }],
        },
      };
    }
    if (error instanceof UnauthorizedError) {
      return { status: 401, body: { success: false, message: error.message, error: 'INVALID_API_KEY' } };
    }
    if (error instanceof NotFoundError) return { status: 404, body: { success: false, code: 'NOT_FOUND', message: error.message } };
    if (error instanceof ConflictError) return { status: 409, body: { success: false, code: 'CONFLICT', message: error.message } };
    if (error instanceof IdempotencyKeyReusedError) {
      return { status: 422, body: { success: false, code: 'IDEMPOTENCY_KEY_REUSED', message: error.message } };
    }
    if (error instanceof PayloadTooLargeError) {
      return { status: 413, body: { success: false, code: 'PAYLOAD_TOO_LARGE', message: error.message } };
    }
    if (error instanceof RateLimitedError) return { status: 429, body: { success: false, code: 'RATE_LIMITED', message: error.message } };
    if (error instanceof UpstreamError)
      return { status: upstreamStatus(error), body: { success: false, code: 'UPSTREAM_ERROR', message: error.message } };
    if (error instanceof ServiceUnavailableError)
      return { status: 503, body: { success: false, code: 'SERVICE_UNAVAILABLE', message: error.message } };
    return null;
  },
  internal: () => ({ status: 500, body: { success: false, code: 'UNKNOWN_ERROR', message: 'An unexpected error occurred' } }),
};

/** parse-jd, generate-*, invite and interview status: `{success:false, message[, errors:[{path, message}]]}`. */
export function jobFamily(supportEmail: string): ErrorFamily<JobFamilyBody> {
  return {
    name: 'jobs',
    render(error) {
      if (error instanceof ValidationError) {
        const detail = error.issues.map((i) => `${bracketPath(i.path) || 'body'}: ${i.message}`).join('; ');
        return {
          status: 422,
          body: {
            success: false,
            message: `Validation error: ${detail}`,
            errors: error.issues.map((i) => ({ path: bracketPath(i.path), message: i.message })),
          },
        };
      }
      if (error instanceof InvalidJsonError) return { status: 400, body: { success: false, message: error.message } };
      if (error instanceof UnauthorizedError) {
        return { status: 401, body: { success: false, message: `Unauthorized. Please contact support at ${supportEmail}.` } };
      }
      if (error instanceof NotFoundError) return { status: 404, body: { success: false, message: error.message } };
      if (error instanceof ConflictError) return { status: 409, body: { success: false, message: error.message } };
      if (error instanceof IdempotencyKeyReusedError) return { status: 422, body: { success: false, message: error.message } };
      if (error instanceof PayloadTooLargeError) return { status: 413, body: { success: false, message: error.message } };
      if (error instanceof RateLimitedError) return { status: 429, body: { success: false, message: error.message } };
      if (error instanceof UpstreamError) return { status: upstreamStatus(error), body: { success: false, message: error.message } };
      if (error instanceof ServiceUnavailableError) return { status: 503, body: { success: false, message: error.message } };
      return null;
    },
    internal: () => ({ status: 500, body: { success: false, message: 'Internal server error' } }),
  };
}

const PLAIN_STATUS: Array<[abstract new (...args: any[]) => DomainError, number]> = [
  [ValidationError, 400],
  [InvalidJsonError, 400],
  [UnauthorizedError, 401],
  [SignatureError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [PayloadTooLargeError, 413],
  [UnsupportedMediaTypeError, 415],
  [IdempotencyKeyReusedError, 422],
  [RateLimitedError, 429],
  [ServiceUnavailableError, 503],
];

/** Routes outside the public operations (health, provider callbacks, unknown paths): `{success:false, message}`. */
export const plainFamily: ErrorFamily<PlainFamilyBody> = {
  name: 'plain',
  render(error) {
    const status = PLAIN_STATUS.find(([type]) => error instanceof type)?.[1];
    return status ? { status, body: { success: false, message: error.message } } : null;
  },
  internal: () => ({ status: 500, body: { success: false, message: 'Internal server error' } }),
};

/** Catches everything below it; unknown errors become the family's generic 500 and go to the log only. */
export function handleErrors(family: ErrorFamily): Middleware {
  return async (ctx: Context, next) => {
    try {
      await next();
    } catch (err) {
      const error = err instanceof DomainError ? err : (asUnavailable(err) ?? err);
      const rendered = error instanceof DomainError ? family.render(error) : null;
      const { status, body } = rendered ?? family.internal();
      if (!rendered) ctx.state.logger?.error({ err, family: family.name }, 'unhandled error');
      if (error instanceof ServiceUnavailableError)
        ctx.state.logger?.warn({ dependency: error.dependency, err: String(err) }, 'dependency unavailable');
      if (error instanceof RateLimitedError || error instanceof ServiceUnavailableError)
        ctx.set('Retry-After', String(error.retryAfterSeconds));
      else if (status === 503) ctx.set('Retry-After', String(UPSTREAM_RETRY_AFTER_SECONDS));
      ctx.status = status;
      ctx.body = body;
    }
  };
}
