import type { TSchema } from '@sinclair/typebox';
import {
  GenerateQuestionsRequest,
  GenerateQuestionsResponse,
  GenerateScriptRequest,
  GenerateScriptResponse,
  ParseJdRequest,
  ParseJdResponse,
} from '../../shared/ai/schema';
import { jobErrors, withLimitHeaders } from '../openapi/error-responses';
import { EXAMPLES } from '../openapi/examples';
import type { Operation } from '../openapi/operation';
import { V1 } from '../openapi/operation-builders';

/** The AI operations of the reference (api/openapi/operation-table.ts), each under its full and its short path. */

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
    responses: withLimitHeaders({
      200: { description: 'The answer.', schema: response },
      ...jobErrors(400, 401, 413, 422, 429, 500, 502, 503),
    }),
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

export const AI_OPERATIONS: Operation[] = [
  ...AI.flatMap(([name, operationId, summary, request, response, example]) => [
    aiOperation(`${V1}/ai/${name}`, operationId, summary, request, response, example),
    aiOperation(`/ai/${name}`, `${operationId}Short`, summary, request, response, example, true),
  ]),
];
