import { Type, type TSchema } from '@sinclair/typebox';
import {
  AshbyApiKeyBody,
  AshbyApiKeyHint,
  PartnerAtsParam,
  PartnerCredential,
  PartnerCredentialCreate,
  PartnerTest,
  PartnerTestCreate,
  PartnerTestPatch,
} from '../../shared/partners/schema';
import {
  GreenhouseError,
  GreenhouseSendTest,
  GreenhouseSendTestAnswer,
  GreenhouseTestStatus,
  GreenhouseTests,
} from '../../shared/partners/greenhouse';
import { AshbyCancel, AshbyCancelAnswer, AshbyError, AshbyListAnswer, AshbyStart, AshbyStartAnswer } from '../../shared/partners/ashby';
import { callErrors } from '../openapi/error-responses';
import type { Operation, Response } from '../openapi/operation';
import { id, V1 } from '../openapi/operation-builders';

/** The ATS partners' operations of the reference (api/openapi/operation-table.ts): the workspace's setup, and each ATS's door. */

const ok = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data });
const atsParam = { name: 'ats', in: 'path' as const, required: true, description: '`greenhouse` or `ashby`.', schema: PartnerAtsParam };

const CREDENTIAL = {
  id: 'pcr_1f2e3d4c5b6a798877665544',
  ats: 'greenhouse',
  prefix: 'ghk_Q2xhcm',
  created_at: '2026-11-29T09:00:00.000Z',
  expires_at: null,
  revoked_at: null,
};
const TEST = {
  id: 'ptest_9a8b7c6d5e4f3a2b1c0d9e8f',
  name: 'Backend engineer: live interview',
  description: 'Five questions, spoken, about 20 minutes.',
  kind: 'interview',
  interview: {
    job_title: 'Backend Engineer',
    job_description: 'Build the APIs behind our delivery platform.',
    min_experience: 2,
    max_experience: 5,
    seniority_level: 'Mid',
    work_type: 'Remote',
    employment_type: 'Full Time',
    location: 'Lisbon',
    skills_required: ['TypeScript', 'PostgreSQL', 'AWS'],
    skills_good_to_have: ['Kafka', 'Redis', 'Terraform'],
    interview_mode: 'live',
  },
  phone_screen: null,
  created_at: '2026-11-29T09:00:00.000Z',
  updated_at: '2026-11-29T09:00:00.000Z',
};
const { id: _id, created_at: _c, updated_at: _u, phone_screen: _p, ...TEST_BODY } = TEST;

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

export const PARTNER_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: `${V1}/partners/{ats}/credentials`,
    operationId: 'createPartnerCredential',
    summary: "A key for Greenhouse or Ashby to call this workspace's door with",
    description:
      "The key is shown in this answer only (an Idempotency-Key keeps the answer without it), and kept only as a hash. Paste it into the ATS with the door's base URL (docs/ats/). `replace_after_hours` rotates: the workspace's earlier keys for this ATS stop working that many hours from now, so the ATS can be given the new one meanwhile.",
    tag: 'ATS partners',
    security: 'apiKey',
    parameters: [atsParam],
    body: { schema: PartnerCredentialCreate, example: { replace_after_hours: 24 }, optional: true },
    responses: {
      201: {
        description: 'Made; the key is in this answer only.',
        schema: ok(Type.Composite([PartnerCredential, Type.Object({ key: Type.Union([Type.String(), Type.Null()]) })])),
        example: { success: true, data: { ...CREDENTIAL, key: 'ghk_Q2xhcmVuY2UgaXMgYSBsb25nIHJhbmRvbSBrZXk' } },
      },
      ...callErrors(400, 401, 404, 413, 500, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/partners/{ats}/credentials`,
    operationId: 'listPartnerCredentials',
    summary: "The workspace's keys for an ATS (never the keys themselves)",
    tag: 'ATS partners',
    security: 'apiKey',
    parameters: [atsParam],
    responses: {
      200: {
        description: 'Each key, oldest first.',
        schema: ok(Type.Array(PartnerCredential)),
        example: { success: true, data: [CREDENTIAL] },
      },
      ...callErrors(401, 404, 500, 503),
    },
  },
  {
    method: 'delete',
    path: `${V1}/partners/{ats}/credentials/{id}`,
    operationId: 'revokePartnerCredential',
    summary: 'Revoke a key: the ATS calling with it gets 401 from now on',
    tag: 'ATS partners',
    security: 'apiKey',
    parameters: [atsParam, ...id("The key's id (`pcr_…`).")],
    responses: { 204: { description: 'Revoked; no body.' }, ...callErrors(401, 404, 500, 503) },
  },
  {
    method: 'put',
    path: `${V1}/partners/ashby/api-key`,
    operationId: 'setAshbyApiKey',
    summary: 'The Ashby API key results are reported with (write-only)',
    description:
      "The customer's Ashby API key (with the candidatesWrite permission), which `assessment.update` and a phone screen's `candidate.info` are called with. Kept sealed, never returned; the answer shows its last four characters.",
    tag: 'ATS partners',
    security: 'apiKey',
    body: { schema: AshbyApiKeyBody, example: { api_key: 'ashby-api-key-of-the-customer' } },
    responses: {
      200: {
        description: 'Kept.',
        schema: ok(AshbyApiKeyHint),
        example: { success: true, data: { set: true, last4: 'omer', updated_at: '2026-11-29T09:00:00.000Z' } },
      },
      ...callErrors(400, 401, 413, 500, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/partners/ashby/api-key`,
    operationId: 'getAshbyApiKey',
    summary: 'Whether an Ashby API key is kept (its last four characters, never the key)',
    tag: 'ATS partners',
    security: 'apiKey',
    responses: {
      200: {
        description: 'Whether one is kept.',
        schema: ok(AshbyApiKeyHint),
        example: { success: true, data: { set: false, last4: null, updated_at: null } },
      },
      ...callErrors(401, 500, 503),
    },
  },
  {
    method: 'delete',
    path: `${V1}/partners/ashby/api-key`,
    operationId: 'removeAshbyApiKey',
    summary: 'Forget the Ashby API key: results are no longer reported to Ashby',
    tag: 'ATS partners',
    security: 'apiKey',
    responses: { 204: { description: 'Forgotten; no body.' }, ...callErrors(401, 404, 500, 503) },
  },
  {
    method: 'post',
    path: `${V1}/partner-tests`,
    operationId: 'createPartnerTest',
    summary: 'A test the ATS lists and sends candidates to',
    description:
      'An interview (`interview`: what interview/invite takes, but for the job and the candidates, which the ATS gives) or a phone screen (`phone_screen`: what call/initiate takes, likewise). Each order runs through that same use case, with every rule it has.',
    tag: 'ATS partners',
    security: 'apiKey',
    body: { schema: PartnerTestCreate, example: TEST_BODY },
    responses: {
      201: { description: 'Made; the ATS lists it from now on.', schema: ok(PartnerTest), example: { success: true, data: TEST } },
      ...callErrors(400, 401, 413, 500, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/partner-tests`,
    operationId: 'listPartnerTests',
    summary: "The workspace's tests, oldest first",
    tag: 'ATS partners',
    security: 'apiKey',
    responses: {
      200: { description: 'Every test not deleted.', schema: ok(Type.Array(PartnerTest)), example: { success: true, data: [TEST] } },
      ...callErrors(401, 500, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/partner-tests/{id}`,
    operationId: 'getPartnerTest',
    summary: 'One test',
    tag: 'ATS partners',
    security: 'apiKey',
    parameters: id("The test's id (`ptest_…`)."),
    responses: {
      200: { description: 'The test.', schema: ok(PartnerTest), example: { success: true, data: TEST } },
      ...callErrors(401, 404, 500, 503),
    },
  },
  {
    method: 'patch',
    path: `${V1}/partner-tests/{id}`,
    operationId: 'updatePartnerTest',
    summary: "A test's new name, description or terms (its kind stays); orders sent before keep theirs",
    tag: 'ATS partners',
    security: 'apiKey',
    parameters: id("The test's id (`ptest_…`)."),
    body: { schema: PartnerTestPatch, example: { name: 'Backend engineer: live interview (v2)' } },
    responses: {
      200: { description: 'The test as it is now.', schema: ok(PartnerTest), example: { success: true, data: TEST } },
      ...callErrors(400, 401, 404, 413, 500, 503),
    },
  },
  {
    method: 'delete',
    path: `${V1}/partner-tests/{id}`,
    operationId: 'deletePartnerTest',
    summary: 'Stop offering a test: no longer listed or sent; orders sent before keep their results',
    tag: 'ATS partners',
    security: 'apiKey',
    parameters: id("The test's id (`ptest_…`)."),
    responses: { 204: { description: 'Deleted; no body.' }, ...callErrors(401, 404, 500, 503) },
  },
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
      "Runs interview/invite or call/initiate for the candidate, with every rule it has. The same `url` sent again is the same order, and answers the same id. Candidate fields are taken nested under `candidate` (the page's example) or at the top level (its table).",
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
    body: { schema: Type.Object({}), example: {}, optional: true },
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
