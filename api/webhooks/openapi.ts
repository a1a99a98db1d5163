import { Type } from '@sinclair/typebox';
import {
  MAX_WEBHOOK_ENDPOINTS,
  SECRET_OVERLAP_HOURS,
  WebhookCreatedResponse,
  WebhookCreateRequest,
  WebhookRotateRequest,
  WebhookDeletedResponse,
  WebhookDeliveryListQuery,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookEndpointView,
  WebhookListResponse,
  WebhookSecretResponse,
} from '../../shared/webhooks/schema';
import { MAX_DELIVERY_ATTEMPTS } from '../../shared/webhooks/delivery-schedule';
import { callErrors } from '../openapi/error-responses';
import type { Operation } from '../openapi/operation';
import { V1 } from '../openapi/operation-builders';

/** The webhook operations of the operation table (api/openapi/operation-table.ts), in the call family's error shapes. */

const endpointId = {
  name: 'id',
  in: 'path' as const,
  required: true,
  description: 'The endpoint id (`whk_…`).',
  schema: Type.String({ minLength: 1 }),
};
const ENDPOINT_EXAMPLE = {
  id: 'whk_5b1d0c9e8a7f6e5d4c3b2a19',
  url: 'https://ats.example.com/hooks/hiring',
  events: ['call.completed', 'call.failed', 'interview.completed'],
  description: 'Production ATS',
  status: 'enabled',
  disabled_reason: null,
  created_at: '2026-11-24T09:00:00.000Z',
};
const SECRET_EXAMPLE = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const DELIVERY_EXAMPLE = {
  id: 'whk_5b1d0c9e8a7f6e5d4c3b2a19.evt_call_0c1d2e3f4a5b6c7d8e9f0a1b_3',
  event_id: 'evt_call_0c1d2e3f4a5b6c7d8e9f0a1b_3',
  event_type: 'call.completed',
  status: 'pending',
  attempts: 2,
  status_code: 503,
  error: 'the receiver answered 503',
  last_attempt_at: '2026-11-24T09:05:35.000Z',
  next_attempt_at: '2026-11-24T09:07:35.000Z',
  delivered_at: null,
  created_at: '2026-11-24T09:05:00.000Z',
};
const DELIVERY_RULES =
  `Each event is POSTed to each endpoint subscribed to it, signed as the Standard Webhooks specification says (webhook-id, webhook-timestamp, webhook-signature). ` +
  `A 2xx within 10 s is delivered; 410 Gone disables the endpoint; any other answer, or none, is tried again: after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h and then every 12 h, ${MAX_DELIVERY_ATTEMPTS} tries over a little more than three days.`;

export const WEBHOOK_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: `${V1}/webhooks`,
    operationId: 'createWebhook',
    summary: 'Register a webhook endpoint',
    description:
      `${DELIVERY_RULES} The URL must be https and reach a public address: private, loopback and link-local addresses (checked for every address the host resolves to, ` +
      `again at each delivery) and plain http are refused unless the service runs with WEBHOOK_ALLOW_PRIVATE=true; cloud metadata addresses always. ` +
      `The signing secret is in this answer only. At most ${MAX_WEBHOOK_ENDPOINTS} endpoints per workspace.`,
    tag: 'Webhooks',
    security: 'apiKey',
    body: {
      schema: WebhookCreateRequest,
      example: { url: ENDPOINT_EXAMPLE.url, events: ENDPOINT_EXAMPLE.events, description: ENDPOINT_EXAMPLE.description },
    },
    responses: {
      201: {
        description: 'Registered, with its signing secret.',
        schema: WebhookCreatedResponse,
        example: { success: true, data: { ...ENDPOINT_EXAMPLE, secret: SECRET_EXAMPLE } },
      },
      ...callErrors(400, 401),
      409: { ...callErrors(409)[409], description: `The workspace has ${MAX_WEBHOOK_ENDPOINTS} endpoints already.` },
      ...callErrors(413, 500, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/webhooks`,
    operationId: 'listWebhooks',
    summary: "The workspace's webhook endpoints",
    description: 'Oldest first, without their secrets.',
    tag: 'Webhooks',
    security: 'apiKey',
    responses: {
      200: { description: 'The endpoints.', schema: WebhookListResponse, example: { success: true, data: [ENDPOINT_EXAMPLE] } },
      ...callErrors(401, 500, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/webhooks/{id}`,
    operationId: 'getWebhook',
    summary: 'One webhook endpoint',
    tag: 'Webhooks',
    security: 'apiKey',
    parameters: [endpointId],
    responses: {
      200: {
        description: 'The endpoint, without its secret.',
        schema: Type.Object({ success: Type.Literal(true), data: WebhookEndpointView }),
        example: { success: true, data: ENDPOINT_EXAMPLE },
      },
      ...callErrors(401, 404, 500, 503),
    },
  },
  {
    method: 'delete',
    path: `${V1}/webhooks/{id}`,
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description: 'Nothing more is sent to it; deliveries still waiting are marked failed.',
    tag: 'Webhooks',
    security: 'apiKey',
    parameters: [endpointId],
    responses: {
      200: {
        description: 'Deleted.',
        schema: WebhookDeletedResponse,
        example: { success: true, data: { id: ENDPOINT_EXAMPLE.id, deleted: true } },
      },
      ...callErrors(401, 404, 500, 503),
    },
  },
  {
    method: 'post',
    path: `${V1}/webhooks/{id}/rotate-secret`,
    operationId: 'rotateWebhookSecret',
    summary: "Replace an endpoint's signing secret",
    description: `Events are signed with the new secret and, for ${SECRET_OVERLAP_HOURS} hours, with the previous one too (two signatures in webhook-signature), so the receiver can switch when it likes; with \`expire_previous\` (a secret that leaked), the previous one stops signing at once. The body is optional.`,
    tag: 'Webhooks',
    security: 'apiKey',
    parameters: [endpointId],
    body: { schema: WebhookRotateRequest, example: { expire_previous: true }, optional: true },
    responses: {
      200: {
        description: 'The new secret, shown only here.',
        schema: WebhookSecretResponse,
        example: {
          success: true,
          data: { id: ENDPOINT_EXAMPLE.id, secret: SECRET_EXAMPLE, previous_secret_expires_at: '2026-11-25T09:00:00.000Z' },
        },
      },
      ...callErrors(400, 401, 404, 500, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/webhooks/{id}/deliveries`,
    operationId: 'listWebhookDeliveries',
    summary: "An endpoint's deliveries, newest first",
    description: `Every event sent to the endpoint, with its tries: status, the receiver's last answer, and when the next try is due. ${DELIVERY_RULES}`,
    tag: 'Webhooks',
    security: 'apiKey',
    parameters: [
      endpointId,
      ...Object.entries(WebhookDeliveryListQuery.properties).map(([name, schema]) => ({
        name,
        in: 'query' as const,
        required: false,
        description: (schema as { description?: string }).description ?? 'Only deliveries with this status.',
        schema,
      })),
    ],
    responses: {
      200: {
        description: 'One page of deliveries.',
        schema: WebhookDeliveryListResponse,
        example: { success: true, data: [DELIVERY_EXAMPLE], next_cursor: null },
      },
      ...callErrors(400, 401, 404, 429, 500, 503),
    },
  },
  {
    method: 'post',
    path: `${V1}/webhooks/{id}/deliveries/{delivery_id}/retry`,
    operationId: 'retryWebhookDelivery',
    summary: 'Send a delivery again now',
    description:
      'One more try right away, whatever its state: a failed one after its schedule, or a delivered one the receiver lost. No body.',
    tag: 'Webhooks',
    security: 'apiKey',
    parameters: [
      endpointId,
      {
        name: 'delivery_id',
        in: 'path',
        required: true,
        description: 'The delivery id, from the deliveries list.',
        schema: Type.String({ minLength: 1 }),
      },
    ],
    responses: {
      202: {
        description: 'The delivery, pending again; the try follows within a second.',
        schema: WebhookDeliveryResponse,
        example: { success: true, data: { ...DELIVERY_EXAMPLE, next_attempt_at: DELIVERY_EXAMPLE.last_attempt_at } },
      },
      ...callErrors(401, 404),
      409: { ...callErrors(409)[409], description: 'The endpoint is disabled (its receiver answered 410 Gone).' },
      ...callErrors(429, 500, 503),
    },
  },
];
