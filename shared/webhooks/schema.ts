import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Enum, NonEmpty, Nullable, Strict } from '../schema-builders';
import { CallView } from '../calls/resource';
import { InterviewView } from '../interviews/schema';

/**
 * Webhooks: the endpoints a workspace registers, the events sent to them (signed as the Standard Webhooks
 * specification says), and the log of their deliveries. These schemas validate the requests, type the
 * answers, and make the OpenAPI document's operations and its `webhooks` section.
 */

/** Every event, by the resource it is about. Each carries that resource as its GET returns it. */
export const CALL_EVENT_TYPES = [
  'call.scheduled',
  'call.attempt.ended',
  'call.completed',
  'call.failed',
  'call.cancelled',
  'call.rescheduled',
  'call.declined',
  'whatsapp.message.updated',
] as const;
export const INTERVIEW_EVENT_TYPES = [
  'interview.invited',
  'interview.failed',
  'interview.started',
  'interview.completed',
  'interview.expired',
  'interview.reviewed',
] as const;
export const WEBHOOK_EVENT_TYPES = [...CALL_EVENT_TYPES, ...INTERVIEW_EVENT_TYPES] as const;
export type CallEventType = (typeof CALL_EVENT_TYPES)[number];
export type InterviewEventType = (typeof INTERVIEW_EVENT_TYPES)[number];
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What each event means, for the OpenAPI document and the README. */
export const EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'call.scheduled': 'The call waits for its next dial: the first one, or a retry after a failed attempt (`next_attempt_at`).',
  'call.attempt.ended': "An attempt ended, with its outcome or failure reason: the call's last attempt in `attempts`.",
  'call.completed':
    'The candidate was reached, or answered in writing on their link (`channel`: `voice` or `form`). The transcript and the extracted variables are in the call. Final.',
  'call.failed': 'No attempt reached the candidate and no retry is left (`failure_reason`). Final.',
  'call.cancelled': 'The call was cancelled before it reached the candidate. Final.',
  'call.rescheduled': "The candidate moved the next dial on their link: the call's last `reschedules` entry, with `candidate_time`.",
  'call.declined': 'The candidate said they are not interested, on their link: not a failure, and not an opt-out. Final.',
  'whatsapp.message.updated': "A WhatsApp template of the call was sent, failed, or was delivered or read: the call's `messages`.",
  'interview.invited': 'The invitation email with the interview link was sent.',
  'interview.failed': 'The invitation could not be sent (`error`). Final.',
  'interview.started': 'The candidate started the interview.',
  'interview.completed': 'The candidate finished and the answers were assessed (`assessment`). Final.',
  'interview.expired': 'The link expired before the candidate finished; a resend opens it again.',
  'interview.reviewed':
    'A person recorded a decision on the finished interview (`review`, with `review_count`); each later review sends it again. Its `review_history` is empty: GET /interviews/{id} has the earlier reviews.',
};

/** At most this many endpoints per workspace. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
/** How long a rotated secret still signs beside the new one. */
export const SECRET_OVERLAP_HOURS = 24;

const Instant = Type.String({ format: 'date-time' });
const EventType = Enum(WEBHOOK_EVENT_TYPES, { errorMessage: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` });

export const WebhookCreateRequest = Strict({
  url: NonEmpty({
    maxLength: 2048,
    description:
      'Where events are POSTed: an https URL of a public address (private, loopback and link-local addresses, and plain http, only where the service allows them).',
  }),
  events: Type.Optional(
    Type.Array(EventType, {
      minItems: 1,
      uniqueItems: true,
      description: 'The event types to send; every type when left out.',
      errorMessage: 'must be a non-empty list of distinct event types',
    }),
  ),
  description: Type.Optional(Type.String({ maxLength: 500, description: 'A note for the people who run the receiver.' })),
});
export type WebhookCreateRequest = Static<typeof WebhookCreateRequest>;

export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export const WebhookEndpointView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(EventType),
  description: Nullable(Type.String()),
  /** `disabled` once the receiver answered 410 Gone; nothing more is sent to it. */
  status: Enum(WEBHOOK_STATUSES),
  disabled_reason: Nullable(Type.String()),
  created_at: Instant,
});
export type WebhookEndpointView = Static<typeof WebhookEndpointView>;

const Secret = Type.String({
  pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
  description: 'The signing secret, `whsec_` and base64 of 32 random bytes. Shown only when it is made.',
});
/** A secret in the answer that made it; an Idempotency-Key replay of that answer keeps no secret. */
const ShownSecret = Type.Union([Secret, Type.Null()], {
  description:
    'The signing secret, `whsec_` and base64 of 32 random bytes, shown only in the answer that made it. A replay of that answer (`Idempotent-Replayed: true`) has null: no secret is kept beside a stored answer. Rotate the secret for a new one.',
});
export const WebhookCreatedResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Intersect([WebhookEndpointView, Type.Object({ secret: ShownSecret })]),
});
export const WebhookListResponse = Type.Object({ success: Type.Literal(true), data: Type.Array(WebhookEndpointView) });
export const WebhookDeletedResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ id: Type.String(), deleted: Type.Literal(true) }),
});
export const WebhookSecretResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    id: Type.String(),
    secret: ShownSecret,
    /** Until then the previous secret signs too (now, with `expire_previous`): a receiver may switch at its own pace. */
    previous_secret_expires_at: Instant,
  }),
});
export const WebhookRotateRequest = Strict({
  expire_previous: Type.Optional(
    Type.Boolean({
      default: false,
      description: `The previous secret stops signing at once, for a secret that leaked; otherwise it signs beside the new one for ${SECRET_OVERLAP_HOURS} hours.`,
    }),
  ),
});
export type WebhookRotateRequest = Static<typeof WebhookRotateRequest>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const WebhookDeliveryView = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  event_type: EventType,
  /** `pending` while tries are left, `delivered` on a 2xx, `failed` once the schedule is spent or the endpoint is gone. */
  status: Enum(DELIVERY_STATUSES),
  attempts: Type.Integer({ minimum: 0 }),
  /** The receiver's last answer; null when it gave none (a timeout, a refused connection). */
  status_code: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  last_attempt_at: Nullable(Instant),
  next_attempt_at: Nullable(Instant),
  delivered_at: Nullable(Instant),
  created_at: Instant,
});
export type WebhookDeliveryView = Static<typeof WebhookDeliveryView>;
export const WebhookDeliveryResponse = Type.Object({ success: Type.Literal(true), data: WebhookDeliveryView });
export const WebhookDeliveryListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(WebhookDeliveryView),
  next_cursor: Nullable(Type.String(), 'Null on the last page.'),
});
export const WebhookDeliveryListQuery = Strict({
  status: Type.Optional(Enum(DELIVERY_STATUSES)),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Deliveries per page, 1 to 100.' }),
  cursor: Type.Optional(NonEmpty({ maxLength: 512, description: "The previous page's next_cursor; `status` must be the same." })),
});

/** An event's body: `data` is the resource as its GET returns it, whose `sequence` is this event's. */
const Envelope = <T extends TSchema>(type: WebhookEventType, data: T) =>
  Type.Object({
    id: Type.String({ description: 'The event id, also in the webhook-id header: the same on every retry.' }),
    type: Type.Literal(type),
    created_at: Instant,
    data,
  });

/** The body of each event type. */
export const EVENT_BODIES: Record<WebhookEventType, TSchema> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((t) => [t, Envelope(t, (CALL_EVENT_TYPES as readonly string[]).includes(t) ? CallView : InterviewView)]),
) as unknown as Record<WebhookEventType, TSchema>;
export interface WebhookEventBody {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: CallView | InterviewView;
}
