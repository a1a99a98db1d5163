import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { CallInitiateRequest, CallInitiateResponse, CallViewResponse, CampaignRequest, CampaignResponse } from '../../shared/calls/schema';
import { InterviewViewResponse, InviteRequest, InviteResponse } from '../../shared/interviews/schema';
import { RECORDING_TYPES } from '../../shared/interviews/recordings';
import { EXPIRES_IN_DAYS } from '../../shared/interviews/deadlines';
import {
  GenerateQuestionsRequest,
  GenerateQuestionsResponse,
  GenerateScriptRequest,
  GenerateScriptResponse,
  ParseJdRequest,
  ParseJdResponse,
} from '../../shared/ai/schema';
import { WorkspaceResponse } from '../../shared/workspaces/schema';
import {
  CallListQuery,
  CallListResponse,
  InterviewListQuery,
  InterviewListResponse,
  ProjectListQuery,
  ProjectListResponse,
  ProjectViewResponse,
} from '../../shared/lists/schema';
import { VAPI_EVENTS_PATH, WHATSAPP_EVENTS_PATH } from '../../shared/public-urls';
import { callErrors, jobErrors, plainErrors, resendErrors, withBudget } from './error-responses';
import type { Operation } from './operation';
import { HealthBody, ReadinessBody } from '../health';
import { EXAMPLES, RESENT_INTERVIEW_EXAMPLE } from './examples';
import { WEBHOOK_OPERATIONS } from './webhook-operations';
import { CALL_CANCEL_OPERATIONS } from './call-cancel-operations';
import { withIdempotency } from './idempotency';

/**
 * Every public operation with its request and every response it can give, built from the same TypeBox
 * schemas that validate requests and type responses. The OpenAPI document (document.ts) is generated from
 * this table, and the API tests check each response they read against it.
 */
const V1 = '/api/public/v1';
const Success = Type.Object({ success: Type.Literal(true) });
const id = (description: string) => [
  { name: 'id', in: 'path' as const, required: true, description, schema: Type.String({ minLength: 1 }) },
];

function aiOperation(
  path: string,
  operationId: string,
  summary: string,
  request: TSchema,
  response: TSchema,
  example: unknown,
  alias = false,
) {
  return {
    method: 'post',
    path,
    operationId,
    summary,
    description: `${alias ? 'The same operation under its short path. ' : ''}Limited per workspace (5 requests a minute by default); refused and failed requests cost nothing.`,
    tag: 'AI',
    security: 'apiKey',
    body: { schema: request, example },
    responses: withBudget({ 200: { description: 'The answer.', schema: response }, ...jobErrors(400, 401, 413, 422, 429, 500, 502, 503) }),
  } satisfies Operation;
}

/** The query parameters of a list operation, from its TypeBox query schema. */
function queryParameters(schema: TObject) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, prop]) => ({
    name,
    in: 'query' as const,
    required: required.has(name),
    description: (prop as { description?: string }).description ?? '',
    schema: prop,
  }));
}

const LIST_DESCRIPTION =
  'Newest first by creation, or with `updated_since` the change feed: items in the order they last changed, oldest first, ' +
  'each as it is now (a change appears at least once; an item changed again appears again later). Pages follow `next_cursor`; ' +
  'a cursor made for other filters, another list or another workspace is refused (400). A page may hold fewer than `limit` ' +
  'items while `next_cursor` is given. The feed shows changes about 2 s after they happen, and its last `next_cursor` is kept to poll later.';

function listOperation(
  path: string,
  operationId: string,
  summary: string,
  tag: Operation['tag'],
  query: TObject,
  response: TSchema,
  errors: Record<number, unknown>,
) {
  return {
    method: 'get',
    path: `${V1}/${path}`,
    operationId,
    summary,
    description: LIST_DESCRIPTION,
    tag,
    security: 'apiKey',
    parameters: queryParameters(query).map((p) => (p.name === 'limit' ? { ...p, required: false } : p)),
    responses: { 200: { description: 'One page.', schema: response }, ...(errors as Operation['responses']) },
  } satisfies Operation;
}

const AI: Array<[string, string, string, TSchema, TSchema, unknown]> = [
  ['parse-jd', 'parseJobDescription', 'Parse a job description into requirements', ParseJdRequest, ParseJdResponse, EXAMPLES.parseJd],
  [
    'generate-questions',
    'generateQuestions',
    'Generate interview questions for a job',
    GenerateQuestionsRequest,
    GenerateQuestionsResponse,
    EXAMPLES.generateQuestions,
  ],
  [
    'generate-script',
    'generateScript',
    'Write a call script and its extract_variables',
    GenerateScriptRequest,
    GenerateScriptResponse,
    EXAMPLES.generateScript,
  ],
];

const ALL: Operation[] = [
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openApiDocument',
    summary: 'This document: OpenAPI 3.1, generated from the schemas that validate requests',
    tag: 'Reference',
    security: 'none',
    responses: {
      200: { description: 'The OpenAPI document.', schema: Type.Object({ openapi: Type.Literal('3.1.0') }) },
      ...plainErrors(500),
    },
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'reference',
    summary: 'The API reference, rendered from this document',
    tag: 'Reference',
    security: 'none',
    responses: { 200: { description: 'An HTML page.', schema: Type.String(), contentType: 'text/html' }, ...plainErrors(500) },
  },
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    summary: 'Liveness: the process is up',
    tag: 'Health',
    security: 'none',
    responses: { 200: { description: 'Up.', schema: HealthBody, example: EXAMPLES.health }, ...plainErrors(500) },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    summary: 'Readiness: the database and Temporal are reachable',
    tag: 'Health',
    security: 'none',
    responses: {
      200: { description: 'Ready.', schema: ReadinessBody, example: EXAMPLES.readiness },
      503: { description: 'Not ready; the checks say what is down.', schema: ReadinessBody },
      ...plainErrors(500),
    },
  },
  {
    method: 'get',
    path: `${V1}/workspace`,
    operationId: 'getWorkspace',
    summary: 'The workspace of the API key, with its sender profile',
    tag: 'Workspace',
    security: 'apiKey',
    responses: {
      200: { description: 'The workspace.', schema: WorkspaceResponse, example: EXAMPLES.workspace },
      ...callErrors(401, 500, 503),
    },
  },
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
      ...callErrors(400, 401, 413, 500, 502, 503),
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
  ...CALL_CANCEL_OPERATIONS,
  listOperation(
    'calls',
    'listCalls',
    "The workspace's calls, newest first, or the change feed of calls",
    'Calls',
    CallListQuery,
    CallListResponse,
    callErrors(400, 401, 500, 503),
  ),
  listOperation(
    'projects',
    'listProjects',
    "The workspace's projects, newest first, or the change feed of projects",
    'Projects',
    ProjectListQuery,
    ProjectListResponse,
    callErrors(400, 401, 500, 503),
  ),
  {
    method: 'get',
    path: `${V1}/projects/{id}`,
    operationId: 'getProject',
    summary: 'A project: its job, kind, URLs and its calls or interviews counted by status',
    tag: 'Projects',
    security: 'apiKey',
    parameters: id('The project id from campaigns, call/initiate or interview/invite.'),
    responses: {
      200: { description: 'The project.', schema: ProjectViewResponse, example: EXAMPLES.project },
      ...callErrors(401, 404, 500, 503),
    },
  },
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
      ...jobErrors(400, 401, 409, 413, 422, 500, 503),
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
      200: { description: 'The whole recording.', schema: Type.String({ format: 'binary' }), contentType: [...RECORDING_TYPES] },
      206: { description: 'The byte range asked for.', schema: Type.String({ format: 'binary' }), contentType: [...RECORDING_TYPES] },
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
    jobErrors(401, 422, 500, 503),
  ),
  ...AI.flatMap(([name, operationId, summary, request, response, example]) => [
    aiOperation(`${V1}/ai/${name}`, operationId, summary, request, response, example),
    aiOperation(`/ai/${name}`, `${operationId}Short`, summary, request, response, example, true),
  ]),
  {
    method: 'post',
    path: VAPI_EVENTS_PATH,
    operationId: 'vapiEvents',
    summary: "Vapi's server messages (status updates and end-of-call reports)",
    description:
      'Called by Vapi, not by an ATS: set it as the server URL of the Vapi phone number or assistant. Authenticated by X-Vapi-Signature (HMAC-SHA256 of timestamp and body) or X-Vapi-Secret; messages about calls that are not ours are acknowledged.',
    tag: 'Provider callbacks',
    security: 'none',
    body: { schema: Type.Object({ message: Type.Object({ type: Type.String() }) }), example: EXAMPLES.vapiEvent },
    responses: { 200: { description: 'Received.', schema: Success }, ...plainErrors(400, 401, 413, 500, 503) },
  },
  {
    method: 'get',
    path: WHATSAPP_EVENTS_PATH,
    operationId: 'whatsappVerification',
    summary: "Meta's webhook verification handshake",
    description: 'Called by Meta when the webhook is subscribed: hub.challenge is echoed when hub.verify_token is WHATSAPP_VERIFY_TOKEN.',
    tag: 'Provider callbacks',
    security: 'none',
    parameters: [
      { name: 'hub.mode', in: 'query', required: true, description: 'subscribe', schema: Type.String() },
      { name: 'hub.verify_token', in: 'query', required: true, description: 'The configured verify token.', schema: Type.String() },
      { name: 'hub.challenge', in: 'query', required: true, description: 'Echoed back.', schema: Type.String() },
    ],
    responses: {
      200: { description: 'The challenge, echoed.', schema: Type.String(), contentType: 'text/plain' },
      ...plainErrors(403, 500),
    },
  },
  {
    method: 'post',
    path: WHATSAPP_EVENTS_PATH,
    operationId: 'whatsappEvents',
    summary: 'WhatsApp Cloud API message statuses',
    description: 'Called by Meta, not by an ATS. Authenticated by X-Hub-Signature-256 (HMAC-SHA256 of the body with the app secret).',
    tag: 'Provider callbacks',
    security: 'none',
    body: { schema: Type.Object({ entry: Type.Array(Type.Object({})) }), example: EXAMPLES.whatsappEvent },
    responses: { 200: { description: 'Received.', schema: Success }, ...plainErrors(400, 401, 413, 500, 503) },
  },
  ...WEBHOOK_OPERATIONS,
];

/** Every operation, each authenticated POST with its Idempotency-Key. */
export const OPERATIONS: Operation[] = ALL.map(withIdempotency);
