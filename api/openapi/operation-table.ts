import { Type } from '@sinclair/typebox';
import { plainErrors } from './error-responses';
import type { Operation } from './operation';
import { HealthBody, ReadinessBody } from '../health';
import { EXAMPLES } from './examples';
import { withIdempotency } from './idempotency-key';
import { WORKSPACE_OPERATIONS } from '../workspaces/openapi';
import { CALL_OPERATIONS } from '../calls/openapi';
import { PROJECT_OPERATIONS } from '../projects/openapi';
import { INTERVIEW_OPERATIONS } from '../interviews/openapi';
import { AI_OPERATIONS } from '../ai/openapi';
import { PROVIDER_OPERATIONS } from '../providers/openapi';
import { WEBHOOK_OPERATIONS } from '../webhooks/openapi';
import { SUPPRESSION_OPERATIONS } from '../suppressions/openapi';
import { ERASURE_OPERATIONS } from '../erasure/openapi';
import { PARTNER_SETUP_OPERATIONS } from '../partners/openapi-setup';
import { PARTNER_DOOR_OPERATIONS } from '../partners/openapi-doors';

/**
 * Every public operation with its request and every response it can give, built from the same TypeBox
 * schemas that validate requests and type responses: the platform's own here, each slice's in its
 * `api/<slice>/openapi.ts`, beside its routes. The OpenAPI document (document.ts) is generated from this
 * table, and the API tests check each response they read against it.
 */
const PLATFORM: Operation[] = [
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
];

const ALL: Operation[] = [
  ...PLATFORM,
  ...WORKSPACE_OPERATIONS,
  ...CALL_OPERATIONS,
  ...PROJECT_OPERATIONS,
  ...INTERVIEW_OPERATIONS,
  ...AI_OPERATIONS,
  ...PROVIDER_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...SUPPRESSION_OPERATIONS,
  ...ERASURE_OPERATIONS,
  ...PARTNER_SETUP_OPERATIONS,
  ...PARTNER_DOOR_OPERATIONS,
];

/** Every operation, each authenticated POST with its Idempotency-Key. */
export const OPERATIONS: Operation[] = ALL.map(withIdempotency);
