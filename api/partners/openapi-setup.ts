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
import { callErrors } from '../openapi/error-responses';
import { EXAMPLES } from '../openapi/examples';
import type { Operation } from '../openapi/operation';
import { id, V1 } from '../openapi/operation-builders';

/** What a workspace sets up for its ATS, in the reference (api/openapi/operation-table.ts): its keys, its Ashby API key, its tests. */

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
/** The reference's invitation (api/openapi/examples.ts) without what the ATS gives: a test's interview terms. */
const { ats_job_id: _job, candidates: _candidates, ...INVITE_TERMS } = EXAMPLES.invite;
/** A test as the reference shows one; the doors' examples list it too (api/partners/openapi-doors.ts). */
export const TEST = {
  id: 'ptest_9a8b7c6d5e4f3a2b1c0d9e8f',
  name: 'Backend engineer: live interview',
  description: 'Five questions, spoken, about 20 minutes.',
  kind: 'interview',
  interview: { ...INVITE_TERMS, interview_mode: 'live' },
  phone_screen: null,
  created_at: '2026-11-29T09:00:00.000Z',
  updated_at: '2026-11-29T09:00:00.000Z',
};
const { id: _id, created_at: _c, updated_at: _u, phone_screen: _p, ...TEST_BODY } = TEST;

export const PARTNER_SETUP_OPERATIONS: Operation[] = [
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
];
