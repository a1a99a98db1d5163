/**
 * Errors as typed values. Domain and API code throws these; one middleware per operation family turns
 * them into that family's HTTP shape (see api/errors.ts), so no handler ever writes an error body itself.
 */

/** A path into a request body, as segments: ['candidates', 0, 'name']. Each family renders it its own way. */
export type Path = ReadonlyArray<string | number>;

export interface Issue {
  path: Path;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind: string;
}

/** The request is malformed or breaks a rule; `issues` lists every violation found. */
export class ValidationError extends DomainError {
  readonly kind = 'validation';
  constructor(
    message: string,
    readonly issues: Issue[],
  ) {
    super(message);
  }
}

/** The body is not parseable JSON. */
export class InvalidJsonError extends DomainError {
  readonly kind = 'invalid_json';
  constructor(message = 'Invalid JSON in request body') {
    super(message);
  }
}

export class UnauthorizedError extends DomainError {
  readonly kind = 'unauthorized';
  constructor() {
    super('Invalid or missing API key');
  }
}

/** The resource does not exist or belongs to another workspace; both read the same to the caller. */
export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
}

export class RateLimitedError extends DomainError {
  readonly kind = 'rate_limited';
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Too many requests, please try again later.',
  ) {
    super(message);
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly kind = 'payload_too_large';
  /** `interview`: the interview's recordings together have reached their quota, not this one body its limit. */
  constructor(
    limit: string,
    readonly of: 'body' | 'interview' = 'body',
  ) {
    super(`Request body is larger than the limit of ${limit}`);
  }
}

/** An Idempotency-Key sent again with another request than the one it was first used for. */
export class IdempotencyKeyReusedError extends DomainError {
  readonly kind = 'idempotency_key_reused';
  constructor() {
    super('This Idempotency-Key was used with another request; a new request needs a new key');
  }
}

/** A body whose media type is not one the operation takes, by its declared type or by its leading bytes. */
export class UnsupportedMediaTypeError extends DomainError {
  readonly kind = 'unsupported_media_type';
}

/** Renders a path in dotted style: candidates.0.name */
export function dottedPath(path: Path): string {
  return path.join('.');
}

/** Renders a path in bracket style: candidates[0].phone */
export function bracketPath(path: Path): string {
  return path.reduce<string>((out, seg) => (typeof seg === 'number' ? `${out}[${seg}]` : out ? `${out}.${seg}` : seg), '');
}

/** The request clashes with existing state, such as an ats_job_id already used by an interview project. */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

/** Why a language model's answer failed, beyond its HTTP status. */
export type ModelFailure = 'refusal' | 'malformed_output' | 'rate_limited' | 'unavailable' | 'rejected';

/**
 * The one shape of a provider's failure (language model, voice, WhatsApp, email), thrown by every adapter.
 * `retryable`: a later attempt may pass (an outage, a rate limit, no answer), as `isRetryableStatus` decides
 * for HTTP answers; otherwise the same request will be refused again. `status` is the provider's HTTP status,
 * 0 when it gave none; `code` is the provider's own error code when it gave one. In the API a retryable
 * failure is a 503, any other a 502.
 */
export class UpstreamError extends DomainError {
  readonly kind = 'upstream';
  constructor(
    message: string,
    readonly provider: string,
    readonly retryable: boolean,
    readonly detail: { status?: number; code?: number | ModelFailure } = {},
    /**
     * No answer came to a request that may have reached the provider (a timeout, a connection cut mid-way):
     * what it asked, a message sent to a person, may have happened. A send that fails so is never sent again
     * (docs/reliability.md, "Once to a person").
     */
    readonly outcomeUnknown = false,
  ) {
    super(message);
  }
}

/**
 * The socket errors that mean a request never left: the connection was refused, or its host was not found.
 * Any other failure without an answer (a timeout, a reset) may have come after the request was written.
 */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a request that failed with `err` and no answer may still have reached its server. */
export function mayHaveArrived(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NEVER_SENT.has(code)) return false;
  }
  return true;
}

/** A provider that gave no answer to a request: worth another try, and, when it may have arrived, an unknown outcome. */
export function unansweredFailure(provider: string, message: string, err: unknown): UpstreamError {
  return new UpstreamError(message, provider, true, { status: 0 }, mayHaveArrived(err));
}

/** Whether `err` says a request may have been carried out although it failed (UpstreamError.outcomeUnknown). */
export function outcomeUnknown(err: unknown): boolean {
  return err instanceof UpstreamError && err.outcomeUnknown;
}

/**
 * The one rule for when a provider's HTTP answer may change on a later attempt: no answer (0), 408 Request
 * Timeout, 409 Conflict (a concurrent change on its side), 425 Too Early, 429 and every 5xx. Any other 4xx
 * refuses this very request and will refuse it again.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

/** A provider's HTTP failure, classified by `isRetryableStatus`. */
export function upstreamFailure(provider: string, status: number, message: string, code?: number | ModelFailure): UpstreamError {
  return new UpstreamError(message, provider, isRetryableStatus(status), { status, ...(code === undefined ? {} : { code }) });
}

/** Who a provider is, as a client reads it. */
const PROVIDER_ROLES: Record<string, string> = {
  openai: 'The language model',
  sendgrid: 'The email provider',
  vapi: 'The voice provider',
  whatsapp: 'WhatsApp',
};

/**
 * What a client is told of a provider's failure: who failed, whether it refused or was unavailable, and its
 * HTTP status or error code. The provider's own words may echo the request, an address or an account's
 * details, so they go to the service log and the Temporal UI only.
 */
export function providerFailureText(err: UpstreamError): string {
  const who = PROVIDER_ROLES[err.provider] ?? 'A provider';
  const { status, code } = err.detail;
  const said = typeof code === 'number' ? ` (error ${code})` : code ? ` (${code.replace(/_/g, ' ')})` : status ? ` (HTTP ${status})` : '';
  return err.retryable ? `${who} was unavailable${said}` : `${who} refused the request${said}`;
}

/**
 * Our own database or workflow engine cannot be reached right now (HTTP 503 with Retry-After). The request
 * changed nothing that blocks its retry.
 */
export class ServiceUnavailableError extends DomainError {
  readonly kind = 'service_unavailable';
  readonly retryAfterSeconds = 5;
  /** `uploads`: this process takes as many recordings at once as it is allowed to. */
  constructor(readonly dependency: 'database' | 'temporal' | 'uploads') {
    super('The service is temporarily unavailable; please retry in a few seconds.');
  }
}

/** A request body that arrived too slowly and was cut (HTTP 408): it held a slot others were waiting for. */
export class RequestTimeoutError extends DomainError {
  readonly kind = 'request_timeout';
}

/** A provider callback whose signature or shared secret does not check out. */
export class SignatureError extends DomainError {
  readonly kind = 'bad_signature';
}

/** A request that is understood but refused, such as a webhook verification with the wrong token. */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
}

/**
 * The candidate an ATS sent cannot take the test (docs/ats/): a phone screen without a phone, a person who
 * opted out, an email another candidate of the job holds. Each ATS's door says it in its contract's terms.
 */
export class UnfitCandidateError extends DomainError {
  readonly kind = 'unfit_candidate';
}
