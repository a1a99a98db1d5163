import { ErasureInProgressResponse, ErasureRequest, ErasureResponse } from '../../shared/erasure/schema';
import { callErrors } from '../openapi/error-responses';
import type { Operation } from '../openapi/operation';
import { V1 } from '../openapi/operation-builders';

/** The erasure operation of the reference (api/openapi/operation-table.ts), in the call family's error shapes. */
export const ERASURE_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: `${V1}/candidates/erase`,
    operationId: 'eraseCandidate',
    summary: "Erase a candidate's data",
    description:
      'Every call and interview of the workspace that matches the candidate id, the email (any case) or the phone keeps its place and its status, ' +
      'so counts still add up, but loses the name, email, phone, script, transcript, extracted values, message variables, answers, recordings and ' +
      'assessment; so do their copies (list snapshots, change-feed items, stored webhook bodies, kept idempotent answers, the email log). Calls that ' +
      'wait are cancelled (`opted_out`) and interview workflows end. The suppression list keeps an entry of hashes only (`source: "erasure"`), so the ' +
      "person is not contacted again, and the person's earlier entries stay in force without their phone and email. The voice provider's " +
      'copies of the calls are deleted by a workflow that retries until the provider answers (`provider_deletions`). Nothing written after it ' +
      'brings the person back: a late provider report is acknowledged and not kept, and its copy deleted. Workflow histories hold ids, not the person (docs/erasure.md). ' +
      'The erasure is a durable workflow (`erasure-<erasure_id>`): it survives a restart of the API or the worker and finishes. The suppression is filed first, ' +
      'so nothing contacts the person from then on; a call with an attempt under way is cancelled and the erasure waits for that attempt to end. ' +
      'The answer waits up to ERASURE_ANSWER_WITHIN_MS (20 s) for the counts; an erasure still waiting then is answered 202, and ends on its own.',
    tag: 'Suppressions',
    security: 'apiKey',
    body: { schema: ErasureRequest, example: { email: 'jane.doe@example.com' } },
    responses: {
      200: {
        description: 'Erased: what was.',
        schema: ErasureResponse,
        example: {
          success: true,
          data: {
            erasure_id: 'era_5f0c2a7e9b1d4c3a8e6f0b21',
            status: 'erased',
            calls: 2,
            interviews: 1,
            recordings: 3,
            provider_deletions: 4,
          },
        },
      },
      202: {
        description:
          'The erasure goes on (a call of the person has an attempt under way) and ends on its own; nothing contacts the person meanwhile.',
        schema: ErasureInProgressResponse,
        example: {
          success: true,
          data: {
            erasure_id: 'era_5f0c2a7e9b1d4c3a8e6f0b21',
            status: 'in_progress',
            message: 'The erasure goes on: a call of the person has an attempt under way, and the erasure ends once it has.',
          },
        },
      },
      ...callErrors(400, 401, 413, 429, 500, 503),
    },
  },
];
