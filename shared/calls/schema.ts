import { Type, type Static } from '@sinclair/typebox';
import { CustomFields, Enum, NonEmpty, ONE_LINE, Strict } from '../schema-builders';
import { E164_PATTERN, TimeZoneField } from '../formats';
import { VoiceConsent } from './consent';
export * from '../contact/reasons';

/**
 * POST /api/public/v1/call/initiate: the request and response, as the single source of truth for validation,
 * types and the API reference. Unknown fields are rejected everywhere except in the free-form maps
 * (custom_fields, template_variables). Rules one field cannot express (start < end, choices for single_select,
 * known template variables…) live in shared/calls/rules.ts.
 */
export const CallCandidate = Strict({
  id: NonEmpty({ maxLength: 200 }),
  name: Type.String({ minLength: 1, maxLength: 200, ...ONE_LINE, errorMessage: 'must be a name of at least 1 character' }),
  email: Type.String({ format: 'email', errorMessage: 'must be a valid email address' }),
  phone: Type.String({ pattern: E164_PATTERN, errorMessage: 'must be an E.164 phone number such as +14155550123' }),
  custom_fields: Type.Optional(CustomFields),
  timezone: Type.Optional(Type.String(TimeZoneField)),
  consent: Type.Optional(VoiceConsent),
});

export const EXTRACT_TYPES = ['string', 'single_select', 'boolean', 'integer', 'number', 'array', 'date', 'datetime'] as const;
export const ExtractVariable = Strict({
  label: NonEmpty({ maxLength: 100 }),
  type: Enum(EXTRACT_TYPES),
  description: NonEmpty({ maxLength: 2000 }),
  format_example: Type.Optional(Type.String({ maxLength: 500 })),
  choices: Type.Optional(Type.Array(NonEmpty(), { maxItems: 100 })),
});

export const AssistantSettings = Strict({
  gender: Type.Optional(Enum(['Male', 'Female'] as const)),
  language: Type.Optional(
    Strict({ code: NonEmpty(), provider: NonEmpty(), model: Type.Optional(NonEmpty()), label: Type.Optional(Type.String()) }),
  ),
  llm: Type.Optional(Strict({ provider: NonEmpty(), model: NonEmpty(), temperature: Type.Number({ minimum: 0, maximum: 2 }) })),
  tts: Type.Optional(
    Strict({
      provider: NonEmpty(),
      model: NonEmpty(),
      id: NonEmpty(),
      name: NonEmpty(),
      gender: NonEmpty(),
      language: NonEmpty(),
      speed: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 4 })),
    }),
  ),
  effect: Type.Optional(
    Strict({ name: Enum(['Keyboard', 'Office', 'none'] as const), volume: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })) }),
  ),
  tools: Type.Optional(Type.Array(NonEmpty(), { maxItems: 50 })),
  min_endpointing_delay: Type.Optional(Type.Number({ minimum: 0, maximum: 60 })),
  max_endpointing_delay: Type.Optional(Type.Number({ minimum: 0, maximum: 60 })),
});

/** The failure reasons a retry_policy may name; the others a provider reports (shared/calls/retry.ts) always end the call. */
export const RETRYABLE_REASONS = ['missed', 'declined', 'sent_to_voicemail', 'silenced', 'abruptly_disconnected'] as const;
/** Every reason an attempt can fail for: the retryable five, three that end the call, and a call-back not screened. */
export const FAILURE_REASONS = [...RETRYABLE_REASONS, 'provider_error', 'no_outcome', 'invalid_number', 'call_back_incomplete'] as const;

export const RetryIntervalSchema = Strict({
  type: Enum(['delay', 'specific_datetime'] as const),
  duration: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  unit: Type.Optional(Enum(['minutes', 'hours', 'days'] as const)),
  datetime: Type.Optional(Type.String({ format: 'date-time', errorMessage: 'must be an ISO 8601 date-time with a time zone' })),
});

export const Shift = Strict({
  start_minute: Type.Integer({ minimum: 0, maximum: 1439 }),
  end_minute: Type.Integer({ minimum: 1, maximum: 1440 }),
});
const Shifts = Type.Optional(Type.Array(Shift, { maxItems: 48 }));

export const WorkingHoursSchema = Strict({
  enabled: Type.Optional(Type.Boolean({ default: true })),
  timezone: Type.Optional(
    Type.String({
      format: 'hours-zone',
      maxLength: 64,
      default: 'UTC',
      description:
        "The zone of the shifts: UTC, an IANA name (every candidate's shifts in that zone), or `candidate` (each candidate's shifts in their own zones; with several, a moment counts only when it is inside a shift in all of them).",
      errorMessage: 'must be UTC, an IANA time zone name such as America/Chicago, or candidate',
    }),
  ),
  monday: Shifts,
  tuesday: Shifts,
  wednesday: Shifts,
  thursday: Shifts,
  friday: Shifts,
  saturday: Shifts,
  sunday: Shifts,
});

export const RetryPolicySchema = Strict({
  conditions: Type.Array(Enum(RETRYABLE_REASONS), { minItems: 1, uniqueItems: true }),
  intervals: Type.Optional(Type.Array(RetryIntervalSchema, { maxItems: 10 })),
});

/**
 * Where a call stands (GET /calls/:id `status`, the CallStatus search attribute). A call's life: `scheduled` (waiting for its next dial) → `in_progress` (an attempt under way) → `completed`,
 * `failed`, `cancelled` or `declined` (the candidate said "not interested" on their link: not a failure,
 * and not an opt-out). `waiting_for_capacity`: due, and waiting for one of the workspace's calling slots
 * (max_concurrent_calls) or for a busy provider. `cancelling`: cancelled during an attempt, which finishes
 * first; no retry follows.
 */
export const CALL_STATUSES = [
  'scheduled',
  'waiting_for_capacity',
  'in_progress',
  'cancelling',
  'completed',
  'failed',
  'cancelled',
  'declined',
] as const;
/** The statuses a call never leaves. */
export const FINAL_CALL_STATUSES: readonly string[] = ['completed', 'failed', 'cancelled', 'declined'];
export type CallStatus = (typeof CALL_STATUSES)[number];

/** What the page may offer (`candidate_choices` on call/initiate; all by default). "Stop contacting me" is always there. */
export const CANDIDATE_CHOICES = ['call_now', 'pick_time', 'decline', 'form'] as const;
export type CandidateChoiceKind = (typeof CANDIDATE_CHOICES)[number];
export const CandidateChoicesField = Type.Array(Enum(CANDIDATE_CHOICES), {
  minItems: 1,
  uniqueItems: true,
  description:
    'What the candidate\'s link offers besides "Stop contacting me": `call_now` (rings within 30 s inside the calling window), `pick_time` (a slot of their own, moved at most 3 times), `decline` (the call ends as `declined`), `form` (the call\'s questions answered in writing). All four when left out.',
  errorMessage: `must be a non-empty list of distinct choices: ${CANDIDATE_CHOICES.join(', ')}`,
});

/**
 * When the call offers its written form on its own, to a candidate who has not used their link (docs/calls.md):
 * `after_first_failure`, with the fallback message after the first failed attempt (the retries go on);
 * `when_exhausted`, once no retry is left, when the call waits for the written answers before it fails;
 * `never` (the default), as calls always have.
 */
export const FORM_FALLBACKS = ['after_first_failure', 'when_exhausted', 'never'] as const;
export type FormFallback = (typeof FORM_FALLBACKS)[number];

/** How the candidate's call ended up being completed: by a conversation, or by the written form. */
export const COMPLETION_CHANNELS = ['voice', 'form'] as const;
export type CompletionChannel = (typeof COMPLETION_CHANNELS)[number];

/** A call's WhatsApp template messages: before the first dial, and after the last failed attempt. */
export const MESSAGE_KINDS = ['pre_call', 'fallback'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * A WhatsApp message's delivery status, as the provider's status updates move it on. `unknown`: its send got
 * no answer (a worker died during it, or the provider did not answer), so it may have gone; it is never sent
 * again, and the provider's first status update that names it settles it.
 */
export const MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'failed', 'skipped', 'unknown'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const WhatsAppTemplate = Strict({
  template_name: NonEmpty({ maxLength: 512 }),
  template_variables: Type.Record(Type.String({ minLength: 1 }), Type.String(), { default: {}, maxProperties: 50 }),
});

export const CallSettings = Strict({
  retry_policy: Type.Optional(RetryPolicySchema),
  working_hours: Type.Optional(WorkingHoursSchema),
  whatsapp_notifications: Type.Optional(Strict({ pre_call: Type.Optional(WhatsAppTemplate), fallback: Type.Optional(WhatsAppTemplate) })),
});

export const CallInitiateRequest = Strict({
  ats_job_id: Type.String({ minLength: 1, maxLength: 200 }),
  candidates: Type.Array(CallCandidate, { minItems: 1, maxItems: 50 }),
  first_message: Type.String({ minLength: 1, maxLength: 2000, default: 'Hello' }),
  instructions: Type.String({ minLength: 1, maxLength: 20000 }),
  assistant_settings: Type.Optional(AssistantSettings),
  extract_variables: Type.Optional(Type.Array(ExtractVariable, { maxItems: 50 })),
  call_settings: Type.Optional(CallSettings),
  schedule_at: Type.Optional(Type.String({ format: 'date-time', errorMessage: 'must be an ISO 8601 date-time with a time zone' })),
  candidate_choices: Type.Optional(CandidateChoicesField),
  form_fallback: Type.Optional(
    Enum(FORM_FALLBACKS, {
      description:
        'When the call offers the candidate its questions in writing, if they have not used their link: `after_first_failure` (the fallback message goes out after the first failed attempt, with the link, and the retries go on), `when_exhausted` (once no retry is left, the fallback goes out and the call waits 72 hours for the written answers before it fails), or `never` (the default).',
    }),
  ),
});
export type CallInitiateRequest = Static<typeof CallInitiateRequest>;
export type CallCandidate = Static<typeof CallCandidate>;
export type ExtractVariable = Static<typeof ExtractVariable>;
export type CallSettings = Static<typeof CallSettings>;
export type AssistantSettings = Static<typeof AssistantSettings>;
export type WhatsAppTemplate = Static<typeof WhatsAppTemplate>;
export type RetryPolicy = Static<typeof RetryPolicySchema>;
/** One retry's timing. A delay's duration and unit are required by shared/calls/rules.ts, not by its shape. */
export type RetryInterval = Static<typeof RetryIntervalSchema>;
export type WorkingHours = Static<typeof WorkingHoursSchema>;
export type Shift = Static<typeof Shift>;

export const CallResult = Type.Object({
  id: Type.Union([Type.String(), Type.Null()]),
  candidate_id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  status: Enum(['success', 'failed'] as const),
  message: Type.String(),
});
export type CallResult = Static<typeof CallResult>;

export const CallInitiateResponse = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({ project_id: Type.String(), project_url: Type.String(), calls: Type.Array(CallResult) }),
});
export type CallInitiateResponse = Static<typeof CallInitiateResponse>;

export const CampaignRequest = Strict({
  ats_job_id: Type.String({ minLength: 1, maxLength: 200 }),
  name: Type.String({ minLength: 1, maxLength: 200, ...ONE_LINE }),
  job_title: Type.Optional(Type.String({ minLength: 1, maxLength: 200, ...ONE_LINE })),
  company_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, ...ONE_LINE })),
});
export type CampaignRequest = Static<typeof CampaignRequest>;

export const CampaignResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ project_id: Type.String(), project_url: Type.String() }),
});
export type CampaignResponse = Static<typeof CampaignResponse>;
