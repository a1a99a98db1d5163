import type { PartnerLink } from './partners';
import { safeEqual } from '../safe-equal';
import type { Binary } from 'mongodb';
import type { RecordingType } from '../../shared/interviews/recordings';
import type { Question, QuestionType } from '../../shared/jobs/schema';
import { newToken } from '../ids';
import type { EmailStatus, InterviewStatus } from '../../shared/interviews/schema';
import type { InterviewAssessment } from '../../shared/interviews/assessment';
import type { ReviewDecision, ReviewChannel } from '../../shared/interviews/review';
import { expiryAfter } from '../../shared/interviews/deadlines';
import type { InterviewMode } from '../../shared/interviews/live';

/** Stored interview invitations and what the log email provider keeps of their emails. */

export interface InterviewEmail {
  status: EmailStatus;
  provider: string | null;
  message_id: string | null;
  sent_at: Date | null;
  error: string | null;
}

export interface InterviewDoc extends PartnerLink {
  _id: string;
  workspace_id: string;
  project_id: string;
  ats_job_id: string;
  /** The caller's candidate id; one interview per candidate and project. */
  candidate_id: string;
  /** `timezone`: the request's, kept for the candidate (emails go out at any hour: docs/contact-rules.md). */
  candidate: { name: string; email: string; phone: string | null; timezone?: string };
  /** The secret in the candidate's interview link. */
  token: string;
  workflow_id: string;
  status: InterviewStatus;
  /** Its events sent to webhooks: their keys, and the last one's sequence (infra/webhooks/events.ts). */
  sequence?: number;
  events?: string[];
  /** `live`: an AI interviewer asks the questions aloud (docs/live-interviews.md); absent: `async`. */
  interview_mode?: InterviewMode;
  /** A live interview's follow-ups per question (absent: FOLLOW_UPS.default). */
  follow_ups_per_question?: number;
  /** When a live interview's candidate switched to written answers for the rest of its questions. */
  live_switched_at?: Date;
  /** A live interview's recording of its whole conversation, both voices (stores/recordings.ts). */
  conversation_recording?: { id: string; size: number; seconds: number } | null;
  /** The caller's own questions for this invitation, or null to use the project's generated set. */
  custom_questions: Question[] | null;
  /** The questions the candidate will answer, fixed when the invitation is prepared. */
  questions: Question[] | null;
  error: string | null;
  email: InterviewEmail;
  /** Set by the interview page (web/interviews/); absent on invitations stored before it existed. */
  /** The candidate's consent to recording and AI assessment (shared/interviews/consent.ts), given at Start. */
  consent?: { given_at: Date; text_version: string } | null;
  started_at?: Date | null;
  completed_at?: Date | null;
  /** The saved answers in question order, copied here from interview_answers at each save. */
  answers?: StoredAnswer[];
  /** When the link runs out (expiresAtOf reads it, with the default for invitations stored before deadlines). */
  expires_at?: Date;
  /** The one reminder, emailed by the interview's workflow at half the link's time to a candidate who has not started. */
  reminder?: { at: Date; error: string | null } | null;
  /** The last resend the API accepted; the workflow emails the link and records `sent_at`, or the error that stopped it. */
  resend?: { requested_at: Date; sent_at: Date | null; error: string | null } | null;
  /** Written by the workflow once the candidate has finished (pending, then completed or failed). */
  assessment?: StoredAssessment | null;
  /**
   * When the candidate asked for a person, not an AI, to assess their answers (the interview page's
   * `/no-ai-assessment`): no transcription and no AI assessment runs for the interview. Absent: allowed.
   */
  ai_assessment_declined_at?: Date;
  /** A person's decision (operations/interview-reviews.ts): the one in force, and those it replaced, oldest first. */
  review?: StoredReview | null;
  /** The most recent earlier reviews, at most REVIEW_HISTORY_KEPT, oldest first. */
  review_history?: StoredReview[];
  /** Every review recorded, the one in force included; absent before it was kept (then the two above count). */
  review_count?: number;
  /** When the candidate's data was erased (operations/erasure.ts): the interview stays, counted, with nothing of them. */
  erased_at?: Date;
  created_at: Date;
  updated_at: Date;
}

/**
 * When a question was first served, `_id` `<interview>|<index>`: inserted once, so two tabs or a reload
 * never restart its clock.
 */
export interface QuestionClockDoc {
  _id: string;
  served_at: Date;
}

/** A saved answer, `_id` `<interview>|<index>`: inserted once, so an answer is never replaced. */
export interface AnswerDoc extends StoredAnswer {
  _id: string;
  interview_id: string;
  /** A recorded answer's transcript, kept for its assessment (stores/interview-answers.ts). */
  transcript?: string;
}

/**
 * A recorded answer's file (stores/recordings.ts): its bytes are in `recording_chunks`, `<id>|0` … `<id>|<chunks-1>`,
 * each `chunk_bytes` long but the last, so a byte range is found without reading any other chunk.
 */
export interface RecordingDoc {
  _id: string;
  interview_id: string;
  index: number;
  type: RecordingType;
  size: number;
  chunk_bytes: number;
  chunks: number;
  created_at: Date;
  /** Seen referenced by its answer by a sweep (stores/recordings.ts), which need not look again. */
  kept?: boolean;
}

export interface RecordingChunkDoc {
  _id: string;
  data: Binary;
}

/** One saved answer (stores/interview-answers.ts keeps them, one document each). */
export interface StoredAnswer {
  index: number;
  type: QuestionType;
  text: string | null;
  /** A recorded answer's file; absent or null for a typed one. */
  recording?: { id: string; type: RecordingType; size: number } | null;
  duration_seconds: number | null;
  answered_at: Date;
  timed_out: boolean;
  /** A live answer's conversation (docs/live-interviews.md): both sides' turns, in order; absent for the others. */
  turns?: StoredTurn[];
}

/** One turn of a live conversation, as it completed. */
export interface StoredTurn {
  who: 'interviewer' | 'candidate';
  text: string;
  started_at: Date;
  ended_at: Date;
}

/** A turn kept as it completes, before its question's answer is saved: `<interview>|<index>|<seq>`, inserted once. */
export interface TurnDoc extends StoredTurn {
  _id: string;
  interview_id: string;
  index: number;
  seq: number;
}

/** A review as stored: `id` keys its `interview.reviewed` event. */
export interface StoredReview {
  id: string;
  decision: ReviewDecision;
  reviewer: string;
  note: string | null;
  reviewed_at: Date;
  /** Which key made it, by which door (absent for reviews recorded before it was kept). */
  made_by?: { via: ReviewChannel; key_id: string };
}

export type StoredAssessment = Omit<InterviewAssessment, 'assessed_at'> & { assessed_at: Date | null };

/** When the interview's link runs out. */
export function expiresAtOf(interview: Pick<InterviewDoc, 'expires_at' | 'created_at'>): Date {
  return interview.expires_at ?? expiryAfter(interview.created_at);
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
  /** The message's extra headers (List-Unsubscribe…); absent on messages kept before they were. */
  headers?: Record<string, string>;
  created_at: Date;
}

/**
 * The secret of an interview link: its interview's id, a dot, and 256 random bits. The page finds the
 * interview by the id (one exact `_id` read, never a scan for the token) and then compares the whole token,
 * in constant time, with the one stored: the random part is the credential.
 */
export function interviewToken(interviewId: string): string {
  return `${interviewId}.${newToken()}`;
}

/** The interview a link's token names, if the token is one of ours in shape; null otherwise. */
export function interviewIdOf(token: string): string | null {
  const match = /^(int_[0-9a-f]{24})\.[A-Za-z0-9_-]{43}$/.exec(token);
  return match ? match[1] : null;
}

/** Whether `token` is the interview's own, compared in constant time. */
export function tokenMatches(interview: InterviewDoc, token: string): boolean {
  return safeEqual(token, interview.token);
}

/** The `_id` of a live interview's recording of its conversation: one per interview, continued by each session. */
export const conversationRecordingId = (interviewId: string) => `rec_live_${interviewId}`;
