import { Type } from '@sinclair/typebox';
import { InterviewViewResponse, InviteRequest, InviteResponse } from '../../shared/interviews/schema';
import { InterviewListQuery, InterviewListResponse } from '../../shared/lists/schema';
import { UPLOAD_TYPES } from '../../shared/interviews/recordings';
import { EXPIRES_IN_DAYS } from '../../shared/interviews/deadlines';
import { jobErrors, resendErrors } from '../openapi/error-responses';
import { JobErrorBody } from '../error-bodies';
import { EXAMPLES, RESENT_INTERVIEW_EXAMPLE, REVIEWED_INTERVIEW_EXAMPLE } from '../openapi/examples';
import { InterviewReviewRequest } from '../../shared/interviews/review';
import type { Operation } from '../openapi/operation';
import { id, listOperation, V1 } from '../openapi/operation-builders';

/** The interview operations of the reference (api/openapi/operation-table.ts), in the job family's error shapes. */

export const INTERVIEW_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: `${V1}/interview/invite`,
    operationId: 'inviteCandidates',
    summary: 'Invite candidates to AI interviews for a job',
    description:
      "Creates or reuses the job's interview project, fixes its questions (the caller's own or generated once per project) and emails each candidate a link.",
    tag: 'Interviews',
    security: 'apiKey',
    body: { schema: InviteRequest, example: EXAMPLES.invite },
    responses: {
      200: { description: 'One result per candidate; success is false when every candidate failed.', schema: InviteResponse },
      ...jobErrors(400, 401, 409, 413, 422, 429, 500, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/interviews/{id}`,
    operationId: 'getInterview',
    summary: 'An invitation: its status, questions, email, deadline, answers and assessment',
    tag: 'Interviews',
    security: 'apiKey',
    parameters: id('The interview id from interview/invite.'),
    responses: {
      200: { description: 'The invitation.', schema: InterviewViewResponse, example: EXAMPLES.interview },
      ...jobErrors(401, 404, 500, 503),
    },
  },
  {
    method: 'post',
    path: `${V1}/interviews/{id}/resend`,
    operationId: 'resendInterview',
    summary: "Email the candidate's interview link again",
    description: `The link goes out again within seconds (\`resent_at\` says when). An expired interview opens again for ${EXPIRES_IN_DAYS.default} days from now, where the candidate left it. One resend per interview a minute. No body.`,
    tag: 'Interviews',
    security: 'apiKey',
    parameters: id('The interview id from interview/invite.'),
    responses: {
      200: { description: 'The invitation, with its new deadline.', schema: InterviewViewResponse, example: RESENT_INTERVIEW_EXAMPLE },
      ...jobErrors(400, 401, 404),
      ...resendErrors,
      ...jobErrors(500, 503),
    },
  },
  {
    method: 'post',
    path: `${V1}/interviews/{id}/review`,
    operationId: 'reviewInterview',
    summary: "Record a person's decision on a finished interview",
    description:
      "The assessment advises; a person decides. Records `review` (decision, reviewer, note, time, and the key that made it) and sends `interview.reviewed` with the new review and `review_count`. A later review replaces it, and the one it replaced moves to `review_history`, which keeps the last 20. At most REVIEWS_PER_MINUTE reviews per workspace and minute (60 by default), the dashboard's included.",
    tag: 'Interviews',
    security: 'apiKey',
    parameters: id('The interview id from interview/invite.'),
    body: {
      schema: InterviewReviewRequest,
      example: { decision: 'advance', reviewer: 'dana@acme.example', note: 'Checked the answer myself.' },
    },
    responses: {
      200: { description: 'The interview, with its review.', schema: InterviewViewResponse, example: REVIEWED_INTERVIEW_EXAMPLE },
      ...jobErrors(400, 401, 404),
      409: {
        description:
          'The candidate has not finished the interview, or their data was erased, or another review of it is being recorded at this moment.',
        schema: JobErrorBody,
      },
      ...jobErrors(413, 422, 429, 500, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/interviews/{id}/answers/{index}/recording`,
    operationId: 'getAnswerRecording',
    summary: "A recorded answer's file",
    description:
      'The bytes of an audio or video answer, with its own Content-Type. Honours a single `Range: bytes=…` (206 with Content-Range), so a browser can seek while playing; a range outside the file is 416.',
    tag: 'Interviews',
    security: 'apiKey',
    parameters: [
      ...id('The interview id.'),
      {
        name: 'index',
        in: 'path',
        required: true,
        description: "The answer's question index, from 0.",
        schema: Type.String({ pattern: '^[0-9]+$' }),
      },
      { name: 'Range', in: 'header', required: false, description: 'One byte range, as `bytes=0-1023`.', schema: Type.String() },
    ],
    responses: {
      200: { description: 'The whole recording.', schema: Type.String({ format: 'binary' }), contentType: [...UPLOAD_TYPES] },
      206: { description: 'The byte range asked for.', schema: Type.String({ format: 'binary' }), contentType: [...UPLOAD_TYPES] },
      416: { description: 'The range lies outside the recording (Content-Range says its size).' },
      ...jobErrors(401, 404, 500, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/interviews/{id}/recording`,
    operationId: 'getConversationRecording',
    summary: "A live interview's recording",
    description:
      'The whole conversation of a live interview, both voices, as 16-bit mono WAV at 24 kHz (docs/live-interviews.md). Honours a single `Range: bytes=…` (206 with Content-Range); a range outside the file is 416. 404 for an async interview and before a conversation.',
    tag: 'Interviews',
    security: 'apiKey',
    parameters: [
      ...id('The interview id.'),
      { name: 'Range', in: 'header', required: false, description: 'One byte range, as `bytes=0-1023`.', schema: Type.String() },
    ],
    responses: {
      200: { description: 'The whole recording.', schema: Type.String({ format: 'binary' }), contentType: ['audio/wav'] },
      206: { description: 'The byte range asked for.', schema: Type.String({ format: 'binary' }), contentType: ['audio/wav'] },
      416: { description: 'The range lies outside the recording (Content-Range says its size).' },
      ...jobErrors(401, 404, 500, 503),
    },
  },
  listOperation(
    'interviews',
    'listInterviews',
    "The workspace's invitations, newest first, or the change feed of invitations",
    'Interviews',
    InterviewListQuery,
    InterviewListResponse,
    jobErrors(401, 422, 429, 500, 503),
  ),
];
