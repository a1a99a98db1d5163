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

/** At most this many earlier reviews are kept beside the one in force; `review_count` counts them all. */
export const REVIEW_HISTORY_KEPT = 20;

export const REVIEW_CHANNELS = ['api', 'dashboard'] as const;
export type ReviewChannel = (typeof REVIEW_CHANNELS)[number];

export const InterviewReview = Type.Object({
  decision: Enum(REVIEW_DECISIONS),
  reviewer: Type.String(),
  /** Null without one, and after the candidate's erasure (a note speaks of them). */
  note: Nullable(Type.String()),
  reviewed_at: Type.String({ format: 'date-time' }),
  made_by: Nullable(
    Type.Object({
      via: Enum(REVIEW_CHANNELS),
      key_id: Type.String({
        description: 'The API key that made it, or that the dashboard session was opened with (GET apikey:list names it).',
      }),
    }),
    'Which API key, or dashboard session of which key, recorded the review; null for reviews recorded before it was kept.',
  ),
});
export type InterviewReview = Static<typeof InterviewReview>;
