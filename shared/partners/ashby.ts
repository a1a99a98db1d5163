import { Type, type Static } from '@sinclair/typebox';
import { NonEmpty, Nullable } from '../schema-builders';
import type { PartnerResult, PartnerState } from './results';

/**
 * Ashby's assessments framework as Ashby publishes it (developers.ashbyhq.com, "Creating an Assessments
 * Integration" and the assessment.* reference): the partner implements `assessment.list`, `assessment.start` and
 * `assessment.cancel` (RPC-style POSTs, HTTP Basic with the key the partner gave), answering
 * `{success: true, results}`; it reports with Ashby's `assessment.update`, Basic-authenticated with the
 * customer's Ashby API key. A start Ashby should show its user a reason for refusing is a 422 `{message}`; one
 * for a candidate already being assessed, a 409. Data Ashby displays is `{identifier, label, type, value}`.
 */

/** `assessment.list`'s body: an object, whatever Ashby puts in it. */
export const AshbyList = Type.Object({});
export const AshbyAssessmentType = Type.Object({ assessment_type_id: Type.String(), name: Type.String(), description: Type.String() });
export const AshbyListAnswer = Type.Object({ success: Type.Literal(true), results: Type.Array(AshbyAssessmentType) });

export const AshbyStart = Type.Object({
  assessment_type_id: NonEmpty({ maxLength: 100 }),
  candidate: Type.Object({
    ashby_id: NonEmpty({ maxLength: 200 }),
    first_name: NonEmpty({ maxLength: 200 }),
    last_name: NonEmpty({ maxLength: 200 }),
    email: Type.String({ format: 'email', maxLength: 254 }),
    ashby_profile_url: Type.String({ maxLength: 2000 }),
    phone_number: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  }),
  application: Type.Object({ ashby_id: NonEmpty({ maxLength: 200 }), status: Type.String({ maxLength: 100 }) }),
  job: Type.Object({
    ashby_id: NonEmpty({ maxLength: 200 }),
    name: NonEmpty({ maxLength: 300 }),
    req_id: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    ashby_job_url: Type.String({ maxLength: 2000 }),
  }),
});
export type AshbyStart = Static<typeof AshbyStart>;
export const AshbyStartAnswer = Type.Object({ success: Type.Literal(true), results: Type.Object({ assessment_id: Type.String() }) });

export const AshbyCancel = Type.Object({ assessment_id: NonEmpty({ maxLength: 200 }) });
export const AshbyCancelAnswer = AshbyStartAnswer;

/** Ashby's error body; a 422's `message` is shown to the Ashby user. */
export const AshbyError = Type.Object({ success: Type.Literal(false), message: Type.String(), errors: Type.Array(Type.String()) });

export const AshbyDataValue = Type.Object({
  identifier: Type.String(),
  label: Type.String(),
  description: Type.Optional(Type.String()),
  type: Type.Union(['numeric_score', 'numeric_duration_minutes', 'url', 'string', 'boolean_success'].map((t) => Type.Literal(t))),
  value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
});
export type AshbyDataValue = Static<typeof AshbyDataValue>;

/** What `assessment.update` takes. */
export interface AshbyUpdate {
  assessment_id: string;
  timestamp: number;
  assessment_status?: AshbyDataValue;
  assessment_profile_url?: AshbyDataValue;
  assessment_result?: AshbyDataValue;
  cancelled_reason?: AshbyDataValue;
  metadata?: AshbyDataValue[];
}

const STATUS: Record<PartnerState, string> = {
  sent: 'Sent',
  in_progress: 'Started',
  completed: 'Completed',
  expired: 'Expired',
  cancelled: 'Cancelled',
  declined: 'Declined by the candidate',
  failed: 'Failed',
};

const text = (identifier: string, label: string, value: string): AshbyDataValue => ({ identifier, label, type: 'string', value });

/**
 * A result as `assessment.update` says it: the status while it goes on; with the result (the score, or for a
 * phone screen its success) and the profile URL once complete; `cancelled_reason` for every other end.
 */
export function ashbyUpdate(assessmentId: string, r: PartnerResult, profileUrl: string, at: number): AshbyUpdate {
  const update: AshbyUpdate = { assessment_id: assessmentId, timestamp: at };
  if (r.state === 'completed') {
    update.assessment_status = text('status', 'Status', STATUS.completed);
    update.assessment_profile_url = { identifier: 'profile', label: 'Result', type: 'url', value: profileUrl };
    update.assessment_result = r.score
      ? {
          identifier: 'score',
          label: 'Score',
          description: `From ${r.score.minimum} to ${r.score.maximum}`,
          type: 'numeric_score',
          value: r.score.value,
        }
      : { identifier: 'screened', label: 'Screened', type: 'boolean_success', value: true };
    const metadata: AshbyDataValue[] = [];
    if (r.score) {
      metadata.push({ identifier: 'score-min', label: 'Lowest score', type: 'numeric_score', value: r.score.minimum });
      metadata.push({ identifier: 'score-max', label: 'Highest score', type: 'numeric_score', value: r.score.maximum });
    }
    if (r.recommendation) metadata.push(text('recommendation', 'Recommendation', r.recommendation));
    if (r.summary) metadata.push(text('summary', 'Summary', r.summary));
    for (const [k, v] of Object.entries(r.values ?? {}))
      metadata.push(text(`value-${k}`, k, typeof v === 'string' ? v : JSON.stringify(v)));
    if (metadata.length > 0) update.metadata = metadata;
  } else if (r.state === 'sent' || r.state === 'in_progress') {
    update.assessment_status = text('status', 'Status', STATUS[r.state]);
  } else {
    update.cancelled_reason = text('cancelled', 'Ended', STATUS[r.state]);
  }
  return update;
}
