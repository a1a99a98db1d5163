import { Type, type Static } from '@sinclair/typebox';

/**
 * The error bodies of each family, as the single source of their shape: api/errors.ts renders them, the
 * OpenAPI document publishes them, the tests check responses against them.
 */

const Failure = Type.Literal(false);

/** The call operations (call/initiate, campaigns, call status, workspace). */
export const CallValidationErrorBody = Type.Object(
  {
    success: Failure,
    code: Type.Literal('VALIDATION_ERROR'),
    message: Type.String(),
    errors: Type.Array(
      Type.Object({ field: Type.String({ description: 'Dotted path, such as candidates.0.phone' }), message: Type.String() }),
    ),
  },
  { $id: 'CallValidationError' },
);
export const CallAuthErrorBody = Type.Object(
  { success: Failure, message: Type.String(), error: Type.Literal('INVALID_API_KEY') },
  { $id: 'CallAuthError' },
);
export const CALL_ERROR_CODES = [
  'NOT_FOUND',
  'CONFLICT',
  'IDEMPOTENCY_KEY_REUSED',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'UPSTREAM_ERROR',
  'SERVICE_UNAVAILABLE',
  'UNKNOWN_ERROR',
] as const;
export const CallErrorBody = Type.Object(
  { success: Failure, code: Type.Union(CALL_ERROR_CODES.map((c) => Type.Literal(c))), message: Type.String() },
  { $id: 'CallError' },
);
export type CallFamilyBody = Static<typeof CallValidationErrorBody> | Static<typeof CallAuthErrorBody> | Static<typeof CallErrorBody>;

/** The job operations (parse-jd, generate-*, invite, interview status). */
export const JobValidationErrorBody = Type.Object(
  {
    success: Failure,
    message: Type.String(),
    errors: Type.Array(
      Type.Object({ path: Type.String({ description: 'Bracketed path, such as candidates[0].email' }), message: Type.String() }),
    ),
  },
  { $id: 'JobValidationError' },
);
export const JobErrorBody = Type.Object({ success: Failure, message: Type.String() }, { $id: 'JobError' });
export type JobFamilyBody = Static<typeof JobValidationErrorBody> | Static<typeof JobErrorBody>;

/** Everything else: health, provider callbacks, unknown paths and methods. */
export const PlainErrorBody = Type.Object({ success: Failure, message: Type.String() }, { $id: 'PlainError' });
export type PlainFamilyBody = Static<typeof PlainErrorBody>;
