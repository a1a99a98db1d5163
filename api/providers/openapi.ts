import { Type } from '@sinclair/typebox';
import { VAPI_EVENTS_PATH, WHATSAPP_EVENTS_PATH } from '../../shared/public-urls';
import { plainErrors } from '../openapi/error-responses';
import { EXAMPLES } from '../openapi/examples';
import type { Operation } from '../openapi/operation';
import { Success } from '../openapi/operation-builders';

/** The provider callbacks of the reference (api/openapi/operation-table.ts): called by Vapi and Meta, not by an ATS. */

export const PROVIDER_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: VAPI_EVENTS_PATH,
    operationId: 'vapiEvents',
    summary: "Vapi's server messages (status updates, end-of-call reports, call-backs' assistant requests and identity tool calls)",
    description:
      "Called by Vapi, not by an ATS: set it as the server URL of the Vapi phone number or assistant. Authenticated by X-Vapi-Signature (HMAC-SHA256 of timestamp and body) or X-Vapi-Secret; messages about calls that are not ours are acknowledged. An `assistant-request` for an inbound call to a workspace's number is answered with the gate of the caller's open call (it names the company and asks the caller's full name), or one that says nothing is pending; the gate's `tool-calls` to `confirm_identity` are answered with the call's script for the candidate's own name, else with the instruction to end the call (docs/calls.md). A report joins a call only when its assistant's metadata names the call and the attempt.",
    tag: 'Provider callbacks',
    security: 'none',
    body: { schema: Type.Object({ message: Type.Object({ type: Type.String() }) }), example: EXAMPLES.vapiEvent },
    responses: {
      200: {
        description:
          "Received; for an `assistant-request`, Vapi's transient assistant for the call; for `tool-calls`, each identity tool call's result.",
        schema: Type.Union([
          Success,
          Type.Object({ assistant: Type.Object({ firstMessage: Type.String() }) }),
          Type.Object({
            results: Type.Array(Type.Object({ name: Type.Literal('confirm_identity'), toolCallId: Type.String(), result: Type.String() })),
          }),
        ]),
      },
      ...plainErrors(400, 401, 413, 500, 503),
    },
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
