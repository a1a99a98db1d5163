import { CallInitiateRequest, CallInitiateResponse, CampaignRequest, CampaignResponse } from '../../shared/calls/schema';
import { CallCancelRequest, CallCancelResponse, CallViewResponse } from '../../shared/calls/resource';
import { CallListQuery, CallListResponse } from '../../shared/lists/schema';
import { callErrors } from '../openapi/error-responses';
import { CANCELLED_CALL_EXAMPLE, EXAMPLES } from '../openapi/examples';
import type { Operation } from '../openapi/operation';
import { id, listOperation, V1 } from '../openapi/operation-builders';

/** The call operations of the reference (api/openapi/operation-table.ts), in the call family's error shapes. */

export const CALL_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: `${V1}/campaigns`,
    operationId: 'createCampaign',
    summary: 'Create (or find) the campaign project of an ATS job',
    description:
      'call/initiate needs a campaign project for its ats_job_id. The same ats_job_id again returns the existing project with 200.',
    tag: 'Calls',
    security: 'apiKey',
    body: { schema: CampaignRequest, example: EXAMPLES.campaign },
    responses: {
      200: { description: 'The project existed already.', schema: CampaignResponse },
      201: { description: 'The project was created.', schema: CampaignResponse },
      ...callErrors(400, 401, 409, 413, 500, 503),
    },
  },
  {
    method: 'post',
    path: `${V1}/call/initiate`,
    operationId: 'initiateCalls',
    summary: 'Start AI voice calls to the candidates of a campaign',
    description:
      'One call per candidate, each a durable workflow: dialled at schedule_at or within working hours, retried on the policy reasons, with WhatsApp templates before the call or as a fallback. An entry says success only once its call is sure to happen.',
    tag: 'Calls',
    security: 'apiKey',
    body: { schema: CallInitiateRequest, example: EXAMPLES.callInitiate },
    responses: {
      200: { description: 'One result per candidate; success is false when every candidate failed.', schema: CallInitiateResponse },
      ...callErrors(400, 401, 413, 429, 500, 502, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/calls/{id}`,
    operationId: 'getCall',
    summary: 'A call: its status, attempts, transcript, extracted values and messages',
    tag: 'Calls',
    security: 'apiKey',
    parameters: id('The call id from call/initiate.'),
    responses: { 200: { description: 'The call.', schema: CallViewResponse, example: EXAMPLES.call }, ...callErrors(401, 404, 500, 503) },
  },
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
  listOperation(
    'calls',
    'listCalls',
    "The workspace's calls, newest first, or the change feed of calls",
    'Calls',
    CallListQuery,
    CallListResponse,
    callErrors(400, 401, 429, 500, 503),
  ),
];
