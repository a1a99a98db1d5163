import { reviewCount } from '../../infra/views/interviews';
import type { VNode } from 'preact';
import type { InterviewDoc, StoredReview } from '../../infra/documents/interviews';
import { REVIEW_DECISIONS } from '../../shared/interviews/review';

const DECISION_LABELS: Record<StoredReview['decision'], string> = { advance: 'Advance', reject: 'Reject', hold: 'Hold' };
const when = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** One review as the dashboard shows it: the decision, who made it and when, and the note. */
function Decision({ review }: { review: StoredReview }): VNode {
  return (
    <>
      <strong>{DECISION_LABELS[review.decision]}</strong> by {review.reviewer}, {when(review.reviewed_at)}
      {review.note && <q class="note">{review.note}</q>}
    </>
  );
}

/**
 * A finished interview's review on the dashboard: the decision in force and those it replaced, and the form a
 * signed-in person records one with (the API's POST /interviews/{id}/review, through the same operation).
 */
export function ReviewPanel({ interview, csrf }: { interview: InterviewDoc; csrf: string }): VNode | null {
  if (interview.status !== 'completed' || interview.erased_at) return null;
  const history = interview.review_history ?? [];
  // Every earlier review is counted; the last REVIEW_HISTORY_KEPT of them are kept to show.
  const earlier = reviewCount(interview) - (interview.review ? 1 : 0);
  const id = `review-${interview._id}`;
  return (
    <section class="review" aria-labelledby={id}>
      <h3 id={id}>A person's decision</h3>
      {interview.review ? (
        <p class="decision">
          <Decision review={interview.review} />
        </p>
      ) : (
        <p class="decision">Not reviewed yet: the assessment above advises, a person decides.</p>
      )}
      {history.length > 0 && (
        <details>
          <summary>
            Earlier reviews ({earlier}){earlier > history.length ? `, the last ${history.length} shown` : ''}
          </summary>
          <ol class="history">
            {history.map((r) => (
              <li>
                <Decision review={r} />
              </li>
            ))}
          </ol>
        </details>
      )}
      <form method="post" action={`/projects/${interview.project_id}/interviews/${interview._id}/review`} class="review-form">
        <input type="hidden" name="csrf" value={csrf} />
        <fieldset>
          <legend>{interview.review ? 'Change the decision' : 'Decide'}</legend>
          {REVIEW_DECISIONS.map((d) => (
            <label class="choice">
              <input type="radio" name="decision" value={d} required checked={interview.review?.decision === d} /> {DECISION_LABELS[d]}
            </label>
          ))}
        </fieldset>
        <label>
          Your name
          <input type="text" name="reviewer" required maxLength={200} autocomplete="name" />
        </label>
        <label>
          Note (optional)
          <textarea name="note" maxLength={2000} rows={3} />
        </label>
        <button type="submit">Record the decision</button>
      </form>
    </section>
  );
}
