import type { Question } from '../../shared/jobs/schema';
import type { EmailStatus, InterviewStatus } from '../../shared/interviews/schema';

/** Stored interview invitations and what the log email provider keeps of their emails. */

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
