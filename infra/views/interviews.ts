import { expiresAtOf, type InterviewDoc, type StoredReview } from '../documents/interviews';
import { sequenceOf } from '../webhooks/events';
import type { InterviewView } from '../../shared/interviews/schema';
import { conversationRecordingUrl, interviewUrl, recordingUrl } from '../../shared/public-urls';
import type { InterviewReview } from '../../shared/interviews/review';

const reviewView = ({ decision, reviewer, note, reviewed_at, made_by }: StoredReview): InterviewReview => ({
  decision,
  reviewer,
  note,
  reviewed_at: reviewed_at.toISOString(),
  made_by: made_by ? { via: made_by.via, key_id: made_by.key_id } : null,
});

/** Every review recorded, the one in force included (counted from the two kept for interviews before the count). */
export function reviewCount(interview: Pick<InterviewDoc, 'review' | 'review_history' | 'review_count'>): number {
  return interview.review_count ?? (interview.review ? 1 : 0) + (interview.review_history?.length ?? 0);
}

/** GET /api/public/v1/interviews/:id body: what an ATS needs to follow an invitation, without internal fields. */
/** `sequence`: the interview's own, or an event's (its view as the event shows it). */
export function interviewView(interview: InterviewDoc, publicBaseUrl: string, sequence = sequenceOf(interview)): InterviewView {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: interview._id,
    project_id: interview.project_id,
    candidate_id: interview.candidate_id,
    status: interview.status,
    interview_mode: interview.interview_mode ?? 'async',
    interview_url: interviewUrl(publicBaseUrl, interview.token),
    questions_count: interview.questions?.length ?? null,
    questions: interview.questions,
    error: interview.error,
    email: {
      status: interview.email.status,
      provider: interview.email.provider,
      message_id: interview.email.message_id,
      sent_at: iso(interview.email.sent_at),
      error: interview.email.error,
    },
    consent: interview.consent
      ? { given_at: interview.consent.given_at.toISOString(), text_version: interview.consent.text_version }
      : null,
    ai_assessment: interview.ai_assessment_declined_at ? 'declined' : 'allowed',
    ai_assessment_declined_at: iso(interview.ai_assessment_declined_at ?? null),
    started_at: iso(interview.started_at ?? null),
    completed_at: iso(interview.completed_at ?? null),
    expires_at: expiresAtOf(interview).toISOString(),
    reminded_at: interview.reminder && !interview.reminder.error ? interview.reminder.at.toISOString() : null,
    resent_at: iso(interview.resend?.sent_at ?? null),
    answers: (interview.answers ?? []).map((a) => ({
      index: a.index,
      type: a.type,
      text: a.text,
      recording_url: a.recording ? recordingUrl(publicBaseUrl, interview._id, a.index) : null,
      duration_seconds: a.duration_seconds,
      answered_at: a.answered_at.toISOString(),
      timed_out: a.timed_out,
      turns: (a.turns ?? []).map((t) => ({ ...t, started_at: t.started_at.toISOString(), ended_at: t.ended_at.toISOString() })),
    })),
    recording_url: interview.conversation_recording ? conversationRecordingUrl(publicBaseUrl, interview._id) : null,
    assessment: interview.assessment
      ? {
          ...interview.assessment,
          // Assessments stored before the assessor was recorded say only their provider.
          assessor: interview.assessment.assessor ?? null,
          // Assessments stored before flags existed have none.
          questions: interview.assessment.questions.map((q) => ({ ...q, flags: q.flags ?? [] })),
          // Assessments stored before the overall counted answers: counted from the answers as stored.
          overall: interview.assessment.overall && {
            ...interview.assessment.overall,
            answered: interview.assessment.overall.answered ?? (interview.answers ?? []).filter((a) => !a.timed_out).length,
            needs_human_review:
              interview.assessment.overall.needs_human_review ?? interview.assessment.questions.some((q) => (q.flags ?? []).length > 0),
          },
          assessed_at: iso(interview.assessment.assessed_at),
        }
      : null,
    review: interview.review ? reviewView(interview.review) : null,
    review_history: (interview.review_history ?? []).map(reviewView),
    review_count: reviewCount(interview),
    sequence,
    erased_at: interview.erased_at ? interview.erased_at.toISOString() : null,
    created_at: interview.created_at.toISOString(),
    updated_at: interview.updated_at.toISOString(),
  };
}
