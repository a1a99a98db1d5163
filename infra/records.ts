import type { AssistantSettings, CallSettings, ExtractVariable } from '../shared/schemas/call-initiate';
import type { FailureReason } from '../shared/retry';
import type { JobDetails, Question } from '../shared/schemas/job';
import type { EmailStatus, InterviewStatus } from '../shared/schemas/interview-invite';

import { keyedId } from './ids';

/** What the service stores in MongoDB, one interface per collection. */

/**
 * Ids derived from the business key that must be unique, so the unique `_id` index decides uniqueness on
 * MongoDB and FerretDB alike, and every lookup is an exact `_id` match that an index answers.
 */
export const recordId = {
  /** The workspace's project of an ats_job_id. */
  project: (workspaceId: string, atsJobId: string) => keyedId('prj', workspaceId, atsJobId),
  /** The project's candidate with the caller's id. */
  candidate: (projectId: string, candidateId: string) => keyedId('cand', projectId, candidateId),
  /** The one interview of a candidate in a project. */
  interview: (projectId: string, candidateId: string) => keyedId('int', projectId, candidateId),
};

export interface ProjectDoc {
  _id: string;
  workspace_id: string;
  ats_job_id: string;
  kind: 'campaign' | 'interview';
  name: string;
  job_title: string | null;
  company_name: string | null;
  /** Interview projects: the job as the latest invite described it. */
  job: JobDetails | null;
  /** Interview projects: the generated questions, produced once per project. */
  question_set: QuestionSet | null;
  created_at: Date;
  updated_at: Date;
}

/** A project's generated interview questions; generation is claimed in infra/claims.ts so it happens once. */
export interface QuestionSet {
  questions: Question[];
  provider: string;
  generated_at: Date;
}

export interface CandidateDoc {
  _id: string;
  workspace_id: string;
  project_id: string;
  /** The caller's own id; unique within a project. */
  candidate_id: string;
  name: string;
  email: string;
  phone: string | null;
  custom_fields: Record<string, string | number | boolean>;
  /** The call in progress for this candidate, shown for operators; the exclusive claim is in infra/claims.ts. */
  active_call_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export type CallStatus = 'scheduled' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

/**
 * The update path of attempt n, stored at index n-1: attempts are appended one at a time, in order, by the
 * dial activity. Updates address that index because FerretDB lacks the positional `$` operator.
 */
export function attemptPath(attempt: number): string {
  return `attempts.${attempt - 1}`;
}

export interface CallAttempt {
  number: number;
  provider: string;
  provider_call_id: string | null;
  started_at: Date;
  ended_at: Date | null;
  outcome: 'completed' | 'failed' | null;
  failure_reason: FailureReason | null;
  /** The provider's live status of the call (queued, ringing, in-progress, ended), from its status updates. */
  provider_status?: string | null;
  /** When the provider's end-of-call report arrived (or was fetched); the first one is kept. */
  reported_at?: Date | null;
  ended_reason?: string | null;
  recording_url?: string | null;
}

export interface CallMessage {
  kind: 'pre_call' | 'fallback';
  channel: 'whatsapp';
  template_name: string;
  variables: Record<string, string>;
  /** `sent` when the provider accepted it; delivery callbacks move it on to delivered, read or failed. */
  status: MessageStatus;
  provider: string;
  provider_message_id: string | null;
  /** The provider's error code when it refused or could not deliver the message. */
  error_code?: number | null;
  error: string | null;
  sent_at: Date | null;
  status_updated_at?: Date | null;
}

export const MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface CallDoc {
  _id: string;
  workspace_id: string;
  project_id: string;
  ats_job_id: string;
  candidate_id: string;
  candidate: { name: string; email: string; phone: string; custom_fields: Record<string, string | number | boolean> };
  workflow_id: string;
  status: CallStatus;
  /** first_message and instructions with the built-in variables already resolved. */
  first_message: string;
  instructions: string;
  assistant_settings: AssistantSettings | null;
  extract_variables: ExtractVariable[];
  call_settings: CallSettings | null;
  /** WhatsApp template variables, resolved, per kind. */
  whatsapp: { pre_call: ResolvedTemplate | null; fallback: ResolvedTemplate | null };
  schedule_at: Date | null;
  scheduled_for: Date | null;
  next_attempt_at: Date | null;
  attempts: CallAttempt[];
  messages: CallMessage[];
  transcript: Array<{ role: 'assistant' | 'candidate'; text: string }> | null;
  extracted_variables: Record<string, unknown> | null;
  /** Extracted values that were dropped because they did not have the declared type, one line each. */
  extraction_notes?: string[];
  failure_reason: FailureReason | null;
  created_at: Date;
  updated_at: Date;
}

export interface ResolvedTemplate {
  template_name: string;
  variables: Record<string, string>;
}

/** What the `log` WhatsApp provider records instead of sending. */
export interface WhatsAppLogDoc {
  _id: string;
  workspace_id: string;
  call_id: string;
  kind: 'pre_call' | 'fallback';
  to: string;
  template_name: string;
  variables: Record<string, string>;
  created_at: Date;
}

export interface InterviewEmail {
  status: EmailStatus;
  provider: string | null;
  message_id: string | null;
  sent_at: Date | null;
  error: string | null;
}

export interface InterviewDoc {
  _id: string;
  workspace_id: string;
  project_id: string;
  ats_job_id: string;
  /** The caller's candidate id; one interview per candidate and project. */
  candidate_id: string;
  candidate: { name: string; email: string; phone: string | null };
  /** The secret in the candidate's interview link. */
  token: string;
  workflow_id: string;
  status: InterviewStatus;
  /** The caller's own questions for this invitation, or null to use the project's generated set. */
  custom_questions: Question[] | null;
  /** The questions the candidate will answer, fixed when the invitation is prepared. */
  questions: Question[] | null;
  error: string | null;
  email: InterviewEmail;
  created_at: Date;
  updated_at: Date;
}

/** What the `log` email provider records instead of sending. */
export interface EmailLogDoc {
  _id: string;
  /** One message per key (the interview id), however often the send is retried. */
  idempotency_key: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  created_at: Date;
}

/**
 * Finds our record from a provider's id in its callbacks by `_id` (`whatsapp/<message id>`), so a delivery
 * status never needs a scan of the calls.
 */
export interface ProviderRefDoc {
  _id: string;
  call_id: string;
  kind: 'pre_call' | 'fallback';
  created_at: Date;
}

/** A workspace is a tenant: its API keys, projects and calls are invisible to every other workspace. */
export interface WorkspaceDoc {
  _id: string;
  name: string;
  /** The sender profile behind the built-in variables sender_first_name … sender_company. */
  sender: { first_name: string; last_name: string; company: string };
  created_at: Date;
}

/** Keys are stored only as a SHA-256 hash; the key itself is shown once, at creation. */
export interface ApiKeyDoc {
  _id: string;
  workspace_id: string;
  hash: string;
  /** First characters of the key, so an operator can tell keys apart without the secret. */
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** An exclusive claim on a key (infra/claims.ts). */
export interface ClaimDoc {
  _id: string;
  holder: string;
  /** A claim that outlives this (its holder died) may be taken over; null for claims that never expire. */
  expires_at: Date | null;
  created_at: Date;
}

/** One granted request of a fixed-window budget (infra/rate-limit.ts). */
export interface RateLimitDoc {
  _id: string;
  bucket: string;
  window_start: Date;
  /** Past this the document is only history; a TTL index removes it on MongoDB. */
  expires_at: Date;
}
