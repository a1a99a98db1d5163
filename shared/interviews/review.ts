import { Type, type Static } from '@sinclair/typebox';
import { Enum, NonEmpty, Nullable, ONE_LINE, Strict } from '../schema-builders';

/**
 * A person's decision on a finished interview (POST /api/public/v1/interviews/{id}/review, or the dashboard):
 * the AI's assessment advises, a person decides (docs/assessments.md). A later review replaces the one in force,
 * which moves to the history, so who decided what, and when, stays on record.
 */
export const REVIEW_DECISIONS = ['advance', 'reject', 'hold'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const InterviewReviewRequest = Strict({
  decision: Enum(REVIEW_DECISIONS, { errorMessage: `must be one of ${REVIEW_DECISIONS.join(', ')}` }),
  reviewer: NonEmpty({ maxLength: 200, ...ONE_LINE, description: 'Who decided: a name or an email, as the ATS knows them.' }),
  note: Type.Optional(Type.String({ maxLength: 2_000, description: 'Why, in the reviewer’s words.' })),
});
export type InterviewReviewRequest = Static<typeof InterviewReviewRequest>;

export const InterviewReview = Type.Object({
  decision: Enum(REVIEW_DECISIONS),
  reviewer: Type.String(),
  /** Null without one, and after the candidate's erasure (a note speaks of them). */
  note: Nullable(Type.String()),
  reviewed_at: Type.String({ format: 'date-time' }),
});
export type InterviewReview = Static<typeof InterviewReview>;
