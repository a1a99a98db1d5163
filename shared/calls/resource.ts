import { Type, type Static } from '@sinclair/typebox';
import { Enum, NonEmpty, Nullable, Strict } from '../schema-builders';
import { CANCEL_REASONS, DEFERRAL_REASONS, SKIP_REASONS } from '../contact/reasons';
import { VoiceConsent } from './consent';
import { CALL_STATUSES, COMPLETION_CHANNELS, FAILURE_REASONS, MESSAGE_KINDS, MESSAGE_STATUSES } from './schema';

/**
 * A call as the API shows it (GET /calls/{id}, the calls list and feed, every call event) and its cancels: the
 * resource an ATS follows, beside the request that makes it (shared/calls/schema.ts).
 */

const Instant = Type.String({ format: 'date-time' });

/** GET /api/public/v1/calls/{id}: a call as an ATS follows it, without internal fields. */
export const CallView = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  candidate_id: Type.String(),
  status: Enum(CALL_STATUSES),
  scheduled_for: Nullable(Instant),
  timezones: Type.Array(Type.String(), {
    description:
      "The IANA zones of the candidate's local time: the request's timezone, else those of the phone number's region, else the workspace's default_timezone.",
  }),
  deferrals: Type.Array(Type.Object({ from: Instant, to: Instant, reason: Enum(DEFERRAL_REASONS) }), {
    description: 'Contacts moved by a rule above the request: a dial or message due at `from` went out no earlier than `to`.',
  }),
  next_attempt_at: Nullable(Instant),
  candidate_url: Nullable(
    Type.String({
      description:
        "The candidate's own link to this call (`GET /call/{token}`, carried by its WhatsApp messages): call me now, pick a time, not interested, answer in writing, stop contacting me. Null for a call made before links, and after the erasure.",
    }),
  ),
  candidate_time: Nullable(Instant, 'The time the candidate chose on their link for the next dial, if they did; null otherwise.'),
  reschedules: Type.Array(Type.Object({ from: Nullable(Instant), to: Instant, by: Enum(['candidate'] as const), at: Instant }), {
    description:
      'Each move of the next dial by the candidate on their link (`call.rescheduled`): from when, to when, and when they moved it.',
  }),
  link_email: Nullable(
    Type.Object({
      status: Enum(['sent', 'failed', 'skipped', 'unknown'] as const),
      sent_at: Nullable(Instant),
      error: Nullable(Type.String()),
    }),
    "The one email of the candidate's link, where the workspace sends them (`email_call_links`): `sent`, `failed` (the provider refused it, `error`), `skipped` (the address is suppressed for email), or `unknown` (its send got no answer, so it may have gone: it is not sent again). Null when none was due.",
  ),
  form_until: Nullable(
    Instant,
    'While the call, its attempts spent, waits for the written answers (`form_fallback`): until when. Null otherwise.',
  ),
  channel: Nullable(
    Enum(COMPLETION_CHANNELS),
    'How a completed call was completed: `voice`, a conversation; `form`, the candidate answered its questions in writing on their link. Null unless completed.',
  ),
  consent: Nullable(VoiceConsent, "The candidate's consent as the request gave it; null without one, and after the erasure."),
  attempts: Type.Array(
    Type.Object({
      number: Type.Integer({ minimum: 1 }),
      direction: Enum(['outbound', 'inbound'] as const, { description: '`outbound`: dialled; `inbound`: a call-back (docs/calls.md).' }),
      started_at: Nullable(Instant),
      ended_at: Nullable(Instant),
      outcome: Nullable(Enum(['completed', 'failed'] as const)),
      failure_reason: Nullable(Enum(FAILURE_REASONS)),
      provider_status: Nullable(Type.String()),
      ended_reason: Nullable(
        Type.String({
          description:
            "The voice provider's code for how the attempt ended (customer-did-not-answer, assistant-ended-call…), or provider-refused-number / provider-refused-call when it would not place the call.",
        }),
      ),
      recording_url: Nullable(Type.String()),
    }),
  ),
  failure_reason: Nullable(Enum(FAILURE_REASONS)),
  cancel_reason: Nullable(
    Enum(CANCEL_REASONS, {
      description:
        "Why a cancelled call was: `requested` through the API; `outside_calling_window` when the candidate's zones share no moment of the workspace's calling window; `opted_out` when the phone was suppressed for voice while the call waited. Null unless cancelled.",
    }),
  ),
  extracted_variables: Nullable(Type.Record(Type.String(), Type.Unknown())),
  extraction_notes: Type.Array(Type.String()),
  transcript: Nullable(Type.Array(Type.Object({ role: Enum(['assistant', 'candidate'] as const), text: Type.String() }))),
  messages: Type.Array(
    Type.Object({
      kind: Enum(MESSAGE_KINDS),
      channel: Type.Literal('whatsapp'),
      template_name: Type.String(),
      variables: Type.Record(Type.String(), Type.String()),
      status: Enum(MESSAGE_STATUSES, {
        description:
          '`sent` when WhatsApp took it, then `delivered`, `read` or `failed` as its status updates come; `skipped` when not sent (`skip_reason`); `unknown` when its send got no answer (it may have gone): it is never sent again, and the first status update WhatsApp sends of it settles it.',
      }),
      skip_reason: Nullable(
        Enum(SKIP_REASONS),
        'Why a `skipped` message was not sent: `opted_out`, the phone is suppressed for WhatsApp or voice. Null otherwise.',
      ),
      error_code: Nullable(Type.Number()),
      error: Nullable(Type.String()),
      sent_at: Nullable(Instant),
      status_updated_at: Nullable(Instant),
    }),
  ),
  /**
   * The number of the resource's last event sent to the workspace's webhooks, from 1 (0 before any): a
   * receiver orders and deduplicates a resource's events by it.
   */
  sequence: Type.Integer({ minimum: 0 }),
  erased_at: Nullable(
    Instant,
    "When the candidate's data was erased (POST /candidates/erase): the call stays, with nothing of them. Null otherwise.",
  ),
  created_at: Instant,
  /** When the call last changed: its place in the change feed (GET /calls?updated_since=…). */
  updated_at: Instant,
});
export type CallView = Static<typeof CallView>;
export const CallViewResponse = Type.Object({ success: Type.Literal(true), data: CallView });

/** POST /calls/cancel: every unfinished call of a job, or of some of its candidates. */
export const CallCancelRequest = Strict({
  ats_job_id: NonEmpty({ maxLength: 255 }),
  candidate_ids: Type.Optional(
    Type.Array(NonEmpty({ maxLength: 255 }), {
      minItems: 1,
      maxItems: 1000,
      uniqueItems: true,
      description: "Only these candidates' calls (the ATS's candidate ids); every candidate of the job when left out.",
      errorMessage: 'must be a non-empty list of at most 1000 distinct candidate ids',
    }),
  ),
});
export type CallCancelRequest = Static<typeof CallCancelRequest>;
export const CallCancelResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    ats_job_id: Type.String(),
    /** Calls told to stop: cancelled within a second, or `cancelling` until an attempt under way ends. */
    cancelled: Type.Integer({ minimum: 0 }),
    /** Calls of these candidates that had ended already (completed, failed or cancelled), left as they are. */
    already_final: Type.Integer({ minimum: 0 }),
    /** Of the candidate_ids given, those with no call in this job. */
    unknown_candidate_ids: Type.Array(Type.String()),
  }),
});
export type CallCancelResponse = Static<typeof CallCancelResponse>;
export type CallViewResponse = Static<typeof CallViewResponse>;
