import { newId } from '../infra/ids';
import type { InterviewDoc } from '../infra/documents/interviews';
import { ConflictError, NotFoundError, RateLimitedError } from '../shared/errors';
import type { InterviewReviewRequest, ReviewChannel } from '../shared/interviews/review';
import type { OperationDeps } from './deps';

/**
 * A person's decision on a finished interview, from the API (POST /interviews/{id}/review) or the dashboard:
 * the assessment advises, the review decides (docs/assessments.md). Recorded with its `interview.reviewed` and
 * the key that made it (`madeBy`), within the workspace's REVIEWS_PER_MINUTE, whichever door it came through.
 */
export function interviewReviews({ stores }: Pick<OperationDeps, 'stores'>) {
  return async function review(
    workspaceId: string,
    interviewId: string,
    input: InterviewReviewRequest,
    madeBy: { via: ReviewChannel; key_id: string },
  ): Promise<InterviewDoc> {
    const budget = await stores.limits.reviews.take(`${workspaceId}/reviews`);
    if (!budget.allowed)
      throw new RateLimitedError(
        budget.retryAfterSeconds,
        `This workspace's budget of ${budget.limit} reviews per minute has ${budget.remaining} left. Try again after ${budget.resetAt.toISOString()}.`,
      );
    const interview = await stores.interviews.owned(workspaceId, interviewId);
    if (!interview) throw new NotFoundError('Interview not found');
    // A note speaks of the candidate: after their erasure nothing of them may be written back.
    if (interview.erased_at) throw new ConflictError("The candidate's data was erased; there is nothing left to review");
    if (interview.status !== 'completed')
      throw new ConflictError(`The candidate has not finished this interview (status ${interview.status}); review it once it is completed`);
    const note = input.note?.trim();
    const reviewed = await stores.interviews.review(interview, {
      id: newId('rev'),
      decision: input.decision,
      reviewer: input.reviewer.trim(),
      note: note ? note : null,
      reviewed_at: new Date(),
      made_by: madeBy,
    });
    if (!reviewed) throw new ConflictError('Another review of this interview is being recorded at this moment; send yours again');
    return reviewed;
  };
}
export type ReviewInterview = ReturnType<typeof interviewReviews>;
