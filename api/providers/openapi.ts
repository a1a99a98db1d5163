import { Type } from '@sinclair/typebox';
import { VAPI_EVENTS_PATH, WHATSAPP_EVENTS_PATH } from '../../shared/public-urls';
import { plainErrors } from '../openapi/error-responses';
import { EXAMPLES } from '../openapi/examples';
import type { Operation } from '../openapi/operation';
import { Success } from '../openapi/operation-builders';

/** The provider callbacks of the reference (api/openapi/operations.ts): called by Vapi and Meta, not by an ATS. */

export const PROVIDER_OPERATIONS: Operation[] = [
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
];
