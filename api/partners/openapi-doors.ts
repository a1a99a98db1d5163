import { Type } from '@sinclair/typebox';
import {
  GreenhouseError,
  GreenhouseSendTest,
  GreenhouseSendTestAnswer,
  GreenhouseTestStatus,
  GreenhouseTests,
} from '../../shared/partners/greenhouse';
import {
  AshbyCancel,
  AshbyCancelAnswer,
  AshbyError,
  AshbyList,
  AshbyListAnswer,
  AshbyStart,
  AshbyStartAnswer,
} from '../../shared/partners/ashby';
import type { Operation, Response } from '../openapi/operation';
import { TEST } from './openapi-setup';

/**
 * Each ATS's door in the reference (api/openapi/operation-table.ts): the paths, fields and error shapes its
 * ATS's published contract names (docs/ats/), authenticated by the key the workspace made for that ATS.
 */

const greenhouseErrors = (...statuses: number[]): Record<number, Response> =>
  Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: {
          400: 'Not a send_test (every violation is named), or a candidate the test cannot take (a phone screen without a phone in international format, a person who opted out).',
          401: 'The Basic credential is not a live key the workspace made for Greenhouse.',
          404: "No such test (list_tests), or no such order (test_status), in this workspace; an erased candidate's order reads as gone.",
          429: "The workspace's budget of candidates per hour is spent.",
          500: 'An unexpected error.',
          503: 'The database or Temporal is unreachable right now; Greenhouse tries again.',
        }[s]!,
        schema: GreenhouseError,
      },
    ]),
  );
const ashbyErrors = (...statuses: number[]): Record<number, Response> =>
  Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: {
          400: 'Not such a request; every violation is named.',
          401: 'The Basic credential is not a live key the workspace made for Ashby.',
          404: 'No such assessment type, or no such assessment, in this workspace.',
          422: 'A candidate the test cannot take (a phone screen for a candidate without a phone, a person who opted out): Ashby shows `message` to its user.',
          429: "The workspace's budget of candidates per hour is spent.",
          500: 'An unexpected error.',
          503: 'The database or Temporal is unreachable right now; Ashby tries again.',
        }[s]!,
        schema: AshbyError,
      },
    ]),
  );

export const PARTNER_DOOR_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/partners/greenhouse/list_tests',
    operationId: 'greenhouseListTests',
    summary: "Greenhouse's list_tests: the workspace's tests",
    tag: 'ATS doors',
    security: 'partnerKey',
    responses: {
      200: { description: 'Each test.', schema: GreenhouseTests, example: [{ partner_test_id: TEST.id, partner_test_name: TEST.name }] },
      ...greenhouseErrors(401, 500, 503),
    },
  },
  {
    method: 'post',
    path: '/partners/greenhouse/send_test',
    operationId: 'greenhouseSendTest',
    summary: "Greenhouse's send_test: the candidate invited or called",
    description:
      "Runs interview/invite or call/initiate for the candidate, with every rule it has. The same application (the `application_id` of `greenhouse_profile_url`) sent to the same test again is the same order, and answers the same id; the result is reported at the latest `url`. Candidate fields are taken nested under `candidate` (the page's example) or at the top level (its table).",
    tag: 'ATS doors',
    security: 'partnerKey',
    body: {
      schema: GreenhouseSendTest,
      example: {
        partner_test_id: TEST.id,
        candidate: {
          first_name: 'Harry',
          last_name: 'Potter',
          email: 'hpotter@example.com',
          phone_number: '+14155550123',
          greenhouse_profile_url: 'https://app.greenhouse.io/people/17681532?application_id=26234709',
        },
        url: 'https://app.greenhouse.io/integrations/testing_partners/take_home_tests/12345',
      },
    },
    responses: {
      200: {
        description: "Sent: the order's id.",
        schema: GreenhouseSendTestAnswer,
        example: { partner_interview_id: 'pas_0f1e2d3c4b5a69788796a5b4c3d2e1f0' },
      },
      ...greenhouseErrors(400, 401, 404, 429, 500, 503),
    },
  },
  {
    method: 'get',
    path: '/partners/greenhouse/test_status',
    operationId: 'greenhouseTestStatus',
    summary: "Greenhouse's test_status: the order's latest result",
    description:
      "`complete` with the score (1 to 5), the recommendation and the summary (or a phone screen's values) in `metadata`, and the result in the dashboard; else `sent`, `in_progress`, `expired`, `cancelled`, `declined` or `failed`.",
    tag: 'ATS doors',
    security: 'partnerKey',
    parameters: [
      { name: 'partner_interview_id', in: 'query', required: true, description: 'What send_test answered.', schema: Type.String() },
    ],
    responses: {
      200: {
        description: 'Where the test stands.',
        schema: GreenhouseTestStatus,
        example: {
          partner_status: 'complete',
          partner_profile_url: 'https://hiring.example.com/projects/prj_1#interview-itv_1',
          partner_score: 4,
          metadata: { 'Score range': '1 to 5', Recommendation: 'advance', Summary: 'Clear, structured answers.' },
        },
      },
      ...greenhouseErrors(400, 401, 404, 500, 503),
    },
  },
  {
    method: 'post',
    path: '/partners/ashby/assessment.list',
    operationId: 'ashbyAssessmentList',
    summary: "Ashby's assessment.list: the workspace's tests",
    tag: 'ATS doors',
    security: 'partnerKey',
    body: { schema: AshbyList, example: {}, optional: true },
    responses: {
      200: {
        description: 'Each test.',
        schema: AshbyListAnswer,
        example: { success: true, results: [{ assessment_type_id: TEST.id, name: TEST.name, description: TEST.description }] },
      },
      ...ashbyErrors(400, 401, 500, 503),
    },
  },
  {
    method: 'post',
    path: '/partners/ashby/assessment.start',
    operationId: 'ashbyAssessmentStart',
    summary: "Ashby's assessment.start: the candidate invited or called",
    description:
      "Runs interview/invite or call/initiate for the candidate, with every rule it has; a phone screen's phone comes from Ashby's `candidate.info` with the workspace's Ashby API key. The same application sent to the same test again is the same assessment, and answers the same id.",
    tag: 'ATS doors',
    security: 'partnerKey',
    body: {
      schema: AshbyStart,
      example: {
        assessment_type_id: TEST.id,
        candidate: {
          ashby_id: 'f9e8d7c6-0000-4000-8000-000000000001',
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada@example.com',
          ashby_profile_url: 'https://app.ashbyhq.com/candidates/f9e8d7c6',
        },
        application: { ashby_id: 'a1b2c3d4-0000-4000-8000-000000000002', status: 'Active' },
        job: {
          ashby_id: 'j1k2l3m4-0000-4000-8000-000000000003',
          name: 'Backend Engineer',
          ashby_job_url: 'https://app.ashbyhq.com/jobs/j1k2l3m4',
        },
      },
    },
    responses: {
      200: {
        description: "Started: the assessment's id.",
        schema: AshbyStartAnswer,
        example: { success: true, results: { assessment_id: 'pas_0f1e2d3c4b5a69788796a5b4c3d2e1f0' } },
      },
      ...ashbyErrors(400, 401, 404, 422, 429, 500, 503),
    },
  },
  {
    method: 'post',
    path: '/partners/ashby/assessment.cancel',
    operationId: 'ashbyAssessmentCancel',
    summary: "Ashby's assessment.cancel: the interview or call cancelled through the one cancel",
    tag: 'ATS doors',
    security: 'partnerKey',
    body: { schema: AshbyCancel, example: { assessment_id: 'pas_0f1e2d3c4b5a69788796a5b4c3d2e1f0' } },
    responses: {
      200: {
        description: 'Cancelled.',
        schema: AshbyCancelAnswer,
        example: { success: true, results: { assessment_id: 'pas_0f1e2d3c4b5a69788796a5b4c3d2e1f0' } },
      },
      ...ashbyErrors(400, 401, 404, 500, 503),
    },
  },
];
