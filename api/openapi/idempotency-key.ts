import { Type } from '@sinclair/typebox';
import { CallErrorBody, CallValidationErrorBody, JobErrorBody, JobValidationErrorBody } from '../error-bodies';
import { KEY_PATTERN } from '../idempotent-requests';
import type { Operation, Response } from './operation';

/**
 * Every authenticated POST takes an Idempotency-Key (api/idempotent-requests.ts): the header, the replay's header,
 * and the 409 and 422 it can answer, in the operation's own error family, added to each such operation.
 */
const KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    "Any unique value (a UUID) to make a retry safe: the first answer that succeeded is kept for 24 hours and given again, byte for byte with its status and `Idempotent-Replayed: true`, to the same request sent again with the same key. The same key with another request is a 422; a retry while the first is still running is a 409. Keys are the workspace's own.",
  schema: Type.String({ pattern: KEY_PATTERN }),
};
const IN_FLIGHT = 'A request with this Idempotency-Key is still being processed.';
const REUSED = 'This Idempotency-Key was used with another request (another path or body).';

/** Call and webhook operations answer `{success:false, code, message}`; job and AI operations `{success:false, message}`. */
const callShaped = (op: Operation) => op.tag === 'Calls' || op.tag === 'Webhooks';

export function withIdempotency(op: Operation): Operation {
  if (op.method !== 'post' || op.security !== 'apiKey') return op;
  const schema = callShaped(op) ? CallErrorBody : JobErrorBody;
  const conflict: Response = op.responses[409]
    ? { ...op.responses[409], description: `${op.responses[409].description} Or: ${IN_FLIGHT}` }
    : { description: IN_FLIGHT, schema };
  const unprocessable: Response = op.responses[422]
    ? {
        ...op.responses[422],
        description: `${op.responses[422].description} Or: ${REUSED}`,
        schema: Type.Union([op.responses[422].schema!, schema]),
      }
    : { description: REUSED, schema };
  // A key that is not visible ASCII is refused as the family refuses a bad field: 400 for calls, 422 for jobs.
  const badKey = 'Or: the Idempotency-Key is not 1 to 255 visible ASCII characters.';
  const invalid: Record<number, Response> = callShaped(op)
    ? {
        400: op.responses[400]
          ? { ...op.responses[400], description: `${op.responses[400].description} ${badKey}` }
          : { description: badKey.slice(4), schema: CallValidationErrorBody },
      }
    : {
        422: {
          ...unprocessable,
          description: `${unprocessable.description} ${badKey}`,
          schema: Type.Union([unprocessable.schema!, JobValidationErrorBody]),
        },
      };
  return {
    ...op,
    parameters: [...(op.parameters ?? []), KEY_PARAMETER],
    responses: { ...op.responses, 409: conflict, 422: unprocessable, ...invalid },
  };
}
