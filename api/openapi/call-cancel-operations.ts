import { Type } from '@sinclair/typebox';
import { CallCancelRequest, CallCancelResponse, CallViewResponse } from '../../shared/calls/schema';
import { callErrors } from './error-responses';
import { CANCELLED_CALL_EXAMPLE } from './examples';
import type { Operation } from './operation';

/** Cancelling calls, one or a job's, in the operations table (operations.ts), in the call family's error shapes. */

const V1 = '/api/public/v1';
const id = (description: string) => [
  { name: 'id', in: 'path' as const, required: true, description, schema: Type.String({ minLength: 1 }) },
];

export const CALL_CANCEL_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: `${V1}/calls/{id}/cancel`,
    operationId: 'cancelCall',
    summary: 'Cancel a call',
    description:
      'A call waiting for a dial (scheduled, or between attempts) is `cancelled` at once: no further dial, no WhatsApp fallback. ' +
      'A call in an attempt is `cancelling` until the attempt ends, then `cancelled` with no retry; an attempt that reached the candidate completes the call instead, its data kept. ' +
      'The candidate is free for a new call once the call is cancelled. Cancelling a `cancelling` call again changes nothing. No body.',
    tag: 'Calls',
    security: 'apiKey',
    parameters: id('The call id from call/initiate.'),
    responses: {
      200: { description: 'The call, cancelled or cancelling.', schema: CallViewResponse, example: CANCELLED_CALL_EXAMPLE },
      ...callErrors(401, 404),
      409: { ...callErrors(409)[409], description: 'The call has ended already (completed, failed or cancelled).' },
      ...callErrors(500, 503),
    },
  },
  {
    method: 'post',
    path: `${V1}/calls/cancel`,
    operationId: 'cancelCalls',
    summary: "Cancel a job's calls, or some candidates' calls",
    description:
      'Every unfinished call of the job (or of the candidates given) is cancelled as POST /calls/{id}/cancel says, within a second; the answer counts them. Calls that have ended are left as they are.',
    tag: 'Calls',
    security: 'apiKey',
    body: { schema: CallCancelRequest, example: { ats_job_id: 'job-42', candidate_ids: ['cand-1', 'cand-7'] } },
    responses: {
      200: {
        description: 'What was cancelled.',
        schema: CallCancelResponse,
        example: { success: true, data: { ats_job_id: 'job-42', cancelled: 1, already_final: 1, unknown_candidate_ids: [] } },
      },
      ...callErrors(400, 401, 413, 500, 503),
    },
  },
];
