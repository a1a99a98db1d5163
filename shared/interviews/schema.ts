import { Type, type Static } from '@sinclair/typebox';
import { E164_PATTERN, TimeZoneField } from '../formats';
import { CustomFields, Enum, NonEmpty, NOT_BLANK, Nullable, ONE_LINE, Strict } from '../schema-builders';
import { EmploymentType, Question, QuestionType, SeniorityLevel, TIME_LIMIT_BOUNDS, WorkType } from '../jobs/schema';
import { InterviewAssessment } from './assessment';
import { EXPIRES_IN_DAYS } from './deadlines';
import { InterviewReview, REVIEW_HISTORY_KEPT } from './review';
import { FOLLOW_UPS, InterviewModeField, LiveTurn } from './live';

/**
 * POST /api/public/v1/interview/invite and GET /api/public/v1/interviews/:id: requests and responses, the
 * single source of truth for validation, types and the API reference. Unknown fields are rejected except in
 * custom_fields. Cross-field rules (max > min experience, distinct skills) live in shared/interviews/rules.ts.
 */
const NO_LINKS = { format: 'no-hyperlinks' } as const;
const Skills = Type.Array(NonEmpty({ maxLength: 100, ...NOT_BLANK }), { minItems: 3, maxItems: 100 });
const Years = Type.Number({ minimum: 0, maximum: 100 });

export const InviteCandidate = Strict({
  id: NonEmpty({ maxLength: 200 }),
  name: Type.String({
    minLength: 3,
    maxLength: 200,
    format: 'person-name',
    errorMessage: 'must contain only letters, dots and spaces, at least 3 characters',
  }),
  email: Type.String({ maxLength: 254, format: 'email', errorMessage: 'must be a valid email address' }),
  phone: Type.Optional(Type.String({ pattern: E164_PATTERN, errorMessage: 'must be an E.164 phone number such as +14155550123' })),
  custom_fields: Type.Optional(CustomFields),
  timezone: Type.Optional(Type.String(TimeZoneField)),
});
export type InviteCandidate = Static<typeof InviteCandidate>;

/** A caller's own interview question; the type defaults to video and the time limit to the type's default. */
export const CustomQuestion = Strict({
  question: NonEmpty({ maxLength: 1000, ...NOT_BLANK }),
  type: Type.Optional(QuestionType),
  time_limit_seconds: Type.Optional(Type.Integer(TIME_LIMIT_BOUNDS)),
});
export type CustomQuestion = Static<typeof CustomQuestion>;

export const InviteRequest = Strict({
  ats_job_id: NonEmpty({ maxLength: 200 }),
  job_title: NonEmpty({ maxLength: 200, ...ONE_LINE, ...NO_LINKS }),
  job_description: NonEmpty({ maxLength: 20_000, ...NOT_BLANK, ...NO_LINKS }),
  min_experience: Years,
  max_experience: Years,
  seniority_level: SeniorityLevel,
  work_type: WorkType,
  employment_type: EmploymentType,
  location: NonEmpty({ maxLength: 200, ...NOT_BLANK }),
  skills_required: Skills,
  skills_good_to_have: Skills,
  candidates: Type.Array(InviteCandidate, { minItems: 1, maxItems: 200 }),
  questions: Type.Optional(Type.Array(CustomQuestion, { minItems: 1, maxItems: 20 })),
  /** How long each candidate's link stays open, in days from the invitation. */
  expires_in_days: Type.Optional(Type.Integer(EXPIRES_IN_DAYS)),
  interview_mode: Type.Optional(InterviewModeField),
  /** A live interview's follow-up questions after each answer, at most (0 to 3, default 1); async interviews ask none. */
  follow_ups_per_question: Type.Optional(Type.Integer(FOLLOW_UPS)),
});
export type InviteRequest = Static<typeof InviteRequest>;

export const InterviewResult = Type.Object({
  id: Type.Optional(Type.String()),
  candidate_id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  status: Enum(['success', 'failed'] as const),
  message: Type.String(),
});
export type InterviewResult = Static<typeof InterviewResult>;

export const InviteResponse = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({
    project_id: Type.String(),
    job_url: Type.String(),
    project_url: Type.String(),
    interviews: Type.Array(InterviewResult),
  }),
});
export type InviteResponse = Static<typeof InviteResponse>;

/**
 * An invitation's life: `queued` (questions and email under way) → `invited` (the link is sent) → `started`
 * (the candidate pressed Start) → `completed` (they finished); `expired` when the link ran out first (a resend
 * opens it again); `failed` when the invitation could not be sent.
 */
export const INTERVIEW_STATUSES = ['queued', 'invited', 'started', 'completed', 'expired', 'failed'] as const;
/**
 * The invitation email: `pending` until it is sent, `sent`, `failed` (refused, `error`), or `unknown`: its send
 * got no answer, so it may have gone; it is not sent again, and the interview is invited as if it had.
 */
export const EMAIL_STATUSES = ['pending', 'sent', 'failed', 'unknown'] as const;
export type InterviewStatus = (typeof INTERVIEW_STATUSES)[number];
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** A candidate's answer to one question, as saved when they submitted it. */
export const InterviewAnswer = Type.Object({
  /** The question's place in `questions`, from 0. */
  index: Type.Integer({ minimum: 0 }),
  type: QuestionType,
  /** The typed answer; null for a question that timed out. */
  text: Nullable(Type.String()),
  /** A recorded answer's download URL; null for a typed one. */
  recording_url: Nullable(Type.String()),
  /** A recorded answer's length in seconds; null for a typed one. */
  duration_seconds: Nullable(Type.Number()),
  answered_at: Type.String({ format: 'date-time' }),
  /** The answer arrived after the question's time limit and its grace, and was refused. */
  timed_out: Type.Boolean(),
  /** A live interview's conversation about the question, both sides in order (`text` is the candidate's part); empty for an async answer. */
  turns: Type.Array(LiveTurn),
});
export type InterviewAnswer = Static<typeof InterviewAnswer>;

export const InterviewView = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  candidate_id: Type.String(),
  status: Enum(INTERVIEW_STATUSES),
  interview_mode: InterviewModeField,
  interview_url: Type.String(),
  questions_count: Type.Union([Type.Integer(), Type.Null()]),
  questions: Type.Union([Type.Array(Question), Type.Null()]),
  error: Nullable(Type.String()),
  email: Type.Object({
    status: Enum(EMAIL_STATUSES),
    provider: Nullable(Type.String()),
    message_id: Nullable(Type.String()),
    sent_at: Nullable(Type.String({ format: 'date-time' })),
    error: Nullable(Type.String()),
  }),
  /** The candidate's consent to recording and AI assessment, given on the interview page before the first question. */
  consent: Nullable(
    Type.Object({
      given_at: Type.String({ format: 'date-time' }),
      text_version: Type.String({ description: 'The version of the notice the candidate agreed to.' }),
    }),
  ),
  ai_assessment: Enum(['allowed', 'declined'] as const, {
    description:
      'Whether an AI may assess the answers: `declined` once the candidate asked on the interview page for a person instead, and then no transcription and no AI assessment runs (`assessment.status` is `declined`).',
  }),
  /** When the candidate declined the AI assessment; null while it is allowed. */
  ai_assessment_declined_at: Nullable(Type.String({ format: 'date-time' })),
  /** When the candidate pressed Start on the interview page. */
  started_at: Nullable(Type.String({ format: 'date-time' })),
  /** When the candidate finished. */
  completed_at: Nullable(Type.String({ format: 'date-time' })),
  /** When the link stops working unless the interview is finished by then (a resend extends an expired one). */
  expires_at: Type.String({ format: 'date-time' }),
  /** When the one reminder was emailed (at half the link's time, to a candidate who had not started). */
  reminded_at: Nullable(Type.String({ format: 'date-time' })),
  /** When the link was last emailed again at the API's request (POST /interviews/:id/resend). */
  resent_at: Nullable(Type.String({ format: 'date-time' })),
  /** Every answer saved so far, in question order. */
  answers: Type.Array(InterviewAnswer),
  recording_url: Nullable(
    Type.String(),
    "A live interview's recording of the whole conversation, both voices (WAV; GET with the API key, Range honoured). Null for an async interview and before a conversation.",
  ),
  /** The assessment of a finished interview; null before the candidate finishes. */
  assessment: Nullable(InterviewAssessment),
  /** A person's decision on the finished interview (POST /interviews/{id}/review); null before one. */
  review: Nullable(InterviewReview),
  /** The reviews the one in force replaced, oldest first: the last 20 of them (`review_count` counts all). */
  review_history: Type.Array(InterviewReview, { maxItems: REVIEW_HISTORY_KEPT }),
  /** Every review recorded, the one in force included. */
  review_count: Type.Integer({ minimum: 0 }),
  /**
   * The number of the resource's last event sent to the workspace's webhooks, from 1 (0 before any): a
   * receiver orders and deduplicates a resource's events by it.
   */
  sequence: Type.Integer({ minimum: 0 }),
  erased_at: Nullable(
    Type.String({ format: 'date-time' }),
    "When the candidate's data was erased (POST /candidates/erase): the interview stays, with nothing of them. Null otherwise.",
  ),
  created_at: Type.String({ format: 'date-time' }),
  /** When the invitation last changed: its place in the change feed (GET /interviews?updated_since=…). */
  updated_at: Type.String({ format: 'date-time' }),
});
export type InterviewView = Static<typeof InterviewView>;
export const InterviewViewResponse = Type.Object({ success: Type.Literal(true), data: InterviewView });
export type InterviewViewResponse = Static<typeof InterviewViewResponse>;
