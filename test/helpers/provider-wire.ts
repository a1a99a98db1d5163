import { createHmac, randomUUID } from 'node:crypto';
import type { RecordedRequest, StubReply } from './http-stub';
import type { TemplateDefinition } from '../../shared/calls/whatsapp-templates';

/** Wire formats of Vapi and the WhatsApp Cloud API, as those providers send and answer them. */

export const VAPI_ORG = '6b1f3e2a-0c9d-4c51-9f0e-0d3c2b1a0f00';
export const VAPI_PHONE_NUMBER_ID = 'b5c0d6e1-7f1a-4d5e-9a3b-2c4d5e6f7a8b';

/** The Vapi adapter's options against a local server speaking Vapi's wire format. */
export const vapiOptions = (baseUrl: string) => ({
  apiKey: 'vapi-private-key',
  baseUrl,
  timeoutMs: 2_000,
  phoneNumberId: VAPI_PHONE_NUMBER_ID,
  webhookSecret: 'whsec-vapi',
  maxCallSeconds: 900,
  reportGraceSeconds: 60,
  serverUrl: 'https://hiring.test/api/public/v1/providers/vapi/events',
});

/** The Call object Vapi returns from POST /call and GET /call/{id}. */
export function vapiCall(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    orgId: VAPI_ORG,
    type: 'outboundPhoneCall',
    status: 'queued',
    phoneNumberId: VAPI_PHONE_NUMBER_ID,
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}

/** A stub answering create-call like Vapi (201 with the new Call), echoing the request's name and assistant. */
export function vapiCreateReply(req: RecordedRequest): StubReply {
  return { status: 201, body: vapiCall({ name: req.body?.name, customer: req.body?.customer, assistant: req.body?.assistant }) };
}

/** Vapi's validation error body. */
export function vapiBadRequest(message: string[]): StubReply {
  return { status: 400, body: { message, error: 'Bad Request', statusCode: 400 } };
}

/** An `end-of-call-report` server message for a call our adapter placed. */
export function endOfCallReport(args: {
  callId: string;
  attempt: number;
  providerCallId?: string;
  endedReason: string;
  durationSeconds?: number;
  structuredData?: unknown;
  messages?: Array<{ role: string; message: string }>;
  /** `inbound` for a call-back's attempt, as our call-back assistant's metadata says. */
  direction?: 'inbound';
  /** Vapi's success evaluation of the conversation (`analysis.successEvaluation`, "true" or "false"). */
  successEvaluation?: string;
  /** The assistant's metadata; by default ours naming the call and attempt, null for none. */
  metadata?: Record<string, unknown> | null;
}) {
  const ended = new Date();
  const metadata =
    args.metadata === undefined
      ? { call_id: args.callId, attempt: args.attempt, ...(args.direction ? { direction: args.direction } : {}) }
      : args.metadata;
  const started = new Date(ended.getTime() - (args.durationSeconds ?? 95) * 1000);
  return {
    message: {
      type: 'end-of-call-report',
      timestamp: ended.getTime(),
      endedReason: args.endedReason,
      startedAt: started.toISOString(),
      endedAt: ended.toISOString(),
      durationSeconds: args.durationSeconds ?? 95,
      cost: 0.12,
      call: vapiCall({
        id: args.providerCallId ?? randomUUID(),
        name: `${args.callId}#${args.attempt}`,
        status: 'ended',
        assistant: metadata ? { metadata } : {},
      }),
      artifact: {
        messages: args.messages ?? [
          { role: 'system', message: 'You are a recruiter.' },
          { role: 'bot', message: 'Hi Ada, do you have a minute?' },
          { role: 'user', message: 'Yes, I can start next month.' },
        ],
        transcript: 'AI: Hi Ada, do you have a minute?\nUser: Yes, I can start next month.',
        recordingUrl: 'https://storage.vapi.ai/recordings/abc.wav',
      },
      analysis: {
        summary: 'Candidate is available next month.',
        ...(args.structuredData !== undefined ? { structuredData: args.structuredData } : {}),
        ...(args.successEvaluation !== undefined ? { successEvaluation: args.successEvaluation } : {}),
      },
    },
  };
}

export function statusUpdate(args: { callId: string; attempt: number; status: string; providerCallId?: string }) {
  return {
    message: {
      type: 'status-update',
      timestamp: Date.now(),
      status: args.status,
      call: vapiCall({
        id: args.providerCallId ?? randomUUID(),
        name: `${args.callId}#${args.attempt}`,
        status: args.status,
        assistant: { metadata: { call_id: args.callId, attempt: args.attempt } },
      }),
    },
  };
}

/** Vapi's HMAC credential: `x-vapi-signature` over `{timestamp}.{body}`, with its `x-vapi-timestamp` (seconds). */
export function vapiHmacHeaders(raw: string, secret: string, at = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(at / 1000));
  return { 'x-vapi-signature': createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex'), 'x-vapi-timestamp': timestamp };
}

export function hubSignature(raw: string, appSecret: string): Record<string, string> {
  return { 'x-hub-signature-256': `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}` };
}

export const WA_VERSION = 'v21.0';
export const WA_PHONE_NUMBER_ID = '106540352242922';
export const WA_BUSINESS_ACCOUNT_ID = '102290129340398';

/** call/initiate's WhatsApp settings for the two templates in TEMPLATES that calls use. */
export const PRE_CALL_TEMPLATE = {
  template_name: 'interview_reminder',
  template_variables: {
    header_1: '{{candidate_first_name}}',
    body_1: '{{candidate_first_name}}',
    body_2: '{{sender_first_name}}',
    body_3: '{{sender_company}}',
    button_Reschedule: 'later',
  },
};
export const FALLBACK_TEMPLATE = {
  template_name: 'missed_you',
  template_variables: { body_1: '{{candidate_first_name}}', body_2: '{{sender_full_name}}' },
};

/** Template definitions as the Business Management API lists them. */
export const TEMPLATES: TemplateDefinition[] = [
  {
    name: 'interview_reminder',
    language: 'en_US',
    status: 'APPROVED',
    parameter_format: 'POSITIONAL',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
      { type: 'BODY', text: '{{1}}, {{2}} from {{3}} will call you shortly about the role.' },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Call me later' },
          { type: 'URL', text: 'Reschedule', url: 'https://hiring.test/reschedule/{{1}}' },
        ],
      },
    ],
  },
  { name: 'interview_reminder', language: 'es', status: 'APPROVED', components: [{ type: 'BODY', text: 'Hola {{1}}' }] },
  {
    name: 'missed_you',
    language: 'en',
    status: 'APPROVED',
    components: [{ type: 'BODY', text: 'Sorry we missed you, {{1}}. {{2}} will try again.' }],
  },
  { name: 'pending_template', language: 'en', status: 'PENDING', components: [{ type: 'BODY', text: 'Hi {{1}}' }] },
];

/** The Graph API's answer to `GET /{WABA_ID}/message_templates?name=…`: a prefix match, paged. */
export function templateListReply(req: RecordedRequest): StubReply {
  const name = new URL(req.path, 'http://x').searchParams.get('name') ?? '';
  return {
    status: 200,
    body: {
      data: TEMPLATES.filter((t) => t.name.startsWith(name)).map((t, i) => ({ ...t, id: String(1_000_000 + i), category: 'UTILITY' })),
      paging: { cursors: { before: 'QVFIUk', after: 'QVFIUl' } },
    },
  };
}

/** The Cloud API's answer to a sent message. */
export function messageAccepted(req: RecordedRequest, id = `wamid.${randomUUID().replace(/-/g, '')}`): StubReply {
  return {
    status: 200,
    body: {
      messaging_product: 'whatsapp',
      contacts: [{ input: req.body?.to, wa_id: req.body?.to }],
      messages: [{ id, message_status: 'accepted' }],
    },
  };
}

/** A Graph API error as WhatsApp sends it. */
export function graphError(status: number, code: number, message: string, details?: string): StubReply {
  return {
    status,
    body: {
      error: {
        message,
        type: 'OAuthException',
        code,
        ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
        fbtrace_id: 'AbCdEf123',
      },
    },
  };
}

/** A `messages` webhook of the service's WhatsApp number, as Meta sends one, with `value`'s own fields. */
function messagesWebhook(fields: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WA_BUSINESS_ACCOUNT_ID,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: WA_PHONE_NUMBER_ID },
              ...fields,
            },
          },
        ],
      },
    ],
  };
}

/** A delivery-status webhook for one message. */
export function statusWebhook(messageId: string, status: string, extra: Record<string, unknown> = {}) {
  return messagesWebhook({
    statuses: [{ id: messageId, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: '14155550123', ...extra }],
  });
}

/** An inbound text message webhook, as Meta sends a candidate's reply: from an E.164 phone (its wa_id is the digits). */
export function inboundTextWebhook(phone: string, messageId: string, text: string, name = 'Candidate', toNumberId = WA_PHONE_NUMBER_ID) {
  const waId = phone.replace(/^\+/, '');
  return messagesWebhook({
    metadata: { display_phone_number: '15550783881', phone_number_id: toNumberId },
    contacts: [{ profile: { name }, wa_id: waId }],
    messages: [{ from: waId, id: messageId, timestamp: '1764000000', type: 'text', text: { body: text } }],
  });
}

/**
 * Vapi's `tool-calls` message for the call-back gate's identity tool: the model calls `confirm_identity` with
 * the name the caller gave, on the inbound call `providerCallId` whose assistant's metadata names the attempt.
 */
export function identityToolCall(args: {
  callId: string;
  attempt: number;
  providerCallId: string;
  name: string;
  asText?: boolean;
  /** More names in the same message, each a tool call of its own after `name`'s (a model may call a tool several times in one turn). */
  more?: string[];
}) {
  const toolCalls = [args.name, ...(args.more ?? [])].map((name) => ({
    id: `toolcall_${randomUUID()}`,
    type: 'function',
    function: { name: 'confirm_identity', arguments: args.asText ? JSON.stringify({ full_name: name }) : { full_name: name } },
  }));
  return {
    message: {
      type: 'tool-calls',
      timestamp: Date.now(),
      call: vapiCall({
        id: args.providerCallId,
        type: 'inboundPhoneCall',
        status: 'in-progress',
        assistant: { metadata: { call_id: args.callId, attempt: args.attempt, direction: 'inbound' } },
      }),
      toolCallList: toolCalls,
      toolWithToolCallList: toolCalls.map((toolCall) => ({ type: 'function', function: { name: 'confirm_identity' }, toolCall })),
    },
  };
}

/**
 * A person's reply to an interactive message, as Meta delivers it: a reply button's or a list row's title
 * (`button_reply`, `list_reply`).
 */
export function interactiveReplyWebhook(phone: string, messageId: string, kind: 'button_reply' | 'list_reply', title: string) {
  const waId = phone.replace(/^\+/, '');
  return messagesWebhook({
    metadata: { display_phone_number: '15550783881', phone_number_id: WA_PHONE_NUMBER_ID },
    contacts: [{ profile: { name: 'Candidate' }, wa_id: waId }],
    messages: [
      {
        from: waId,
        id: messageId,
        timestamp: '1764000000',
        type: 'interactive',
        interactive: {
          type: kind,
          [kind]: { id: `reply-${messageId}`, title, ...(kind === 'list_reply' ? { description: 'Stop messages' } : {}) },
        },
      },
    ],
  });
}

/**
 * The `assistant-request` Vapi sends when someone calls one of our Vapi numbers (an inbound phone call): the
 * number called, and the caller.
 */
export function assistantRequest(args: { numberId: string; from: string; providerCallId?: string }) {
  const id = args.providerCallId ?? randomUUID();
  return {
    message: {
      type: 'assistant-request',
      timestamp: Date.now(),
      call: vapiCall({
        id,
        type: 'inboundPhoneCall',
        status: 'ringing',
        phoneNumberId: args.numberId,
        customer: { number: args.from },
      }),
      phoneNumber: { id: args.numberId, number: '+15550100000' },
      customer: { number: args.from },
    },
  };
}
