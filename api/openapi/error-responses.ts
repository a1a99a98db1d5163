import { Type } from '@sinclair/typebox';
import {
  CallAuthErrorBody,
  CallErrorBody,
  CallValidationErrorBody,
  JobErrorBody,
  JobValidationErrorBody,
  PlainErrorBody,
} from '../error-bodies';
import type { Response } from './operation';

/** The error responses each family can give, with their bodies and headers, for the operation table. */

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: Type.Integer({ minimum: 1 }) } };
const RATE_LIMIT = {
  'X-RateLimit-Limit': { description: "Requests allowed per window by the workspace's limit of this operation.", schema: Type.Integer() },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: Type.Integer({ minimum: 0 }) },
  'X-RateLimit-Reset': { description: 'When the current window ends, in Unix seconds.', schema: Type.Integer() },
};
/** The statuses of an operation, taken from its family's table of error responses. */
const pick =
  (table: Record<number, Response>) =>
  (...statuses: number[]): Record<number, Response> =>
    Object.fromEntries(statuses.map((s) => [s, table[s]]));

/** The error responses of the call family (`{success:false, code, message[, errors:[{field, message}]]}`). */
export const callErrors = pick({
  400: {
    description: 'The body is not valid JSON, or breaks a rule of the request; every violation is listed.',
    schema: CallValidationErrorBody,
  },
  401: { description: 'The x-service-api-key header is missing or not a valid key.', schema: CallAuthErrorBody },
  404: { description: 'No such resource in this workspace.', schema: CallErrorBody },
  409: { description: 'The ats_job_id belongs to an interview project of this workspace, not a campaign.', schema: CallErrorBody },
  413: { description: 'The body is larger than the configured limit (1 MB by default).', schema: CallErrorBody },
  429: {
    description: 'A limit of the workspace is reached until its window ends (docs/configuration.md#abuse-limits); the message says which.',
    schema: CallErrorBody,
    headers: RETRY_AFTER,
  },
  500: { description: 'An unexpected error; details are in the service log under the x-request-id.', schema: CallErrorBody },
  502: { description: 'A provider answered, but not usefully.', schema: CallErrorBody },
  503: {
    description: 'The database, Temporal or a provider is unreachable right now; nothing was changed.',
    schema: CallErrorBody,
    headers: RETRY_AFTER,
  },
});

/** The error responses of the job family (`{success:false, message[, errors:[{path, message}]]}`). */
export const jobErrors = pick({
  400: { description: 'The body is not valid JSON.', schema: JobErrorBody },
  401: { description: 'The x-service-api-key header is missing or not a valid key.', schema: JobErrorBody },
  404: { description: 'No such resource in this workspace.', schema: JobErrorBody },
  409: { description: 'The ats_job_id belongs to a call campaign of this workspace, not an interview project.', schema: JobErrorBody },
  413: { description: 'The body is larger than the configured limit (1 MB by default).', schema: JobErrorBody },
  422: {
    description: 'Fields are missing, empty or of the wrong type, or break a rule; every violation is listed.',
    schema: JobValidationErrorBody,
  },
  429: {
    description: "The workspace's limit for this operation is reached until the window ends.",
    schema: JobErrorBody,
    headers: RETRY_AFTER,
  },
  500: { description: 'An unexpected error; details are in the service log under the x-request-id.', schema: JobErrorBody },
  502: { description: 'The language model answered, but not usefully.', schema: JobErrorBody },
  503: {
    description: 'The database, Temporal or the language model is unreachable right now.',
    schema: JobErrorBody,
    headers: RETRY_AFTER,
  },
});

/** The error responses of health checks, the reference and provider callbacks (`{success:false, message}`). */
export const plainErrors = pick({
  400: { description: 'The signed body is not valid JSON.', schema: PlainErrorBody },
  401: { description: 'The signature or shared secret is missing or wrong; nothing in the body was read.', schema: PlainErrorBody },
  403: { description: 'The verification token is wrong.', schema: PlainErrorBody },
  413: { description: 'The body is larger than the configured limit.', schema: PlainErrorBody },
  500: { description: 'An unexpected error.', schema: PlainErrorBody },
  503: {
    description: 'The database or Temporal is unreachable right now; the provider retries.',
    schema: PlainErrorBody,
    headers: RETRY_AFTER,
  },
});

/** Every AI response to a known workspace (all but 401) carries what is left of the workspace's limit. */
export function withLimitHeaders(responses: Record<number, Response>): Record<number, Response> {
  return Object.fromEntries(
    Object.entries(responses).map(([s, r]) => [s, s === '401' ? r : { ...r, headers: { ...RATE_LIMIT, ...r.headers } }]),
  );
}

/** The resend operation's own refusals, in the job family's shape. */
export const resendErrors = {
  409: {
    description: 'The invitation has no link to resend (still being sent, or failed), or the candidate has finished.',
    schema: JobErrorBody,
  },
  429: {
    description:
      "This interview was resent less than a minute ago, or the workspace's limit of resends per hour or of emails per day is reached.",
    schema: JobErrorBody,
    headers: RETRY_AFTER,
  },
} satisfies Record<number, Response>;
