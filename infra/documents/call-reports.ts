import { coerceExtracted } from '../../shared/calls/extracted-values';
import type { AttemptResult } from '../../shared/calls/retry';
import { attemptPath, type CallDoc } from './calls';

/**
 * A provider's end-of-call report of one attempt, stored as it arrived under `<call>/<attempt>`. Storing it is
 * one insert of a new `_id`: atomic on FerretDB and MongoDB alike, so the first report of an attempt wins and
 * a repeated one stores nothing. The call's own workflow then writes it into the call, in the write that ends
 * the attempt (activities/calls.ts), so the call keeps one writer while it runs; a report that arrives once the
 * workflow has ended is written into the call by the report's own path (operations/call-reports.ts).
 */
export interface CallReportDoc {
  _id: string;
  call_id: string;
  attempt: number;
  result: AttemptResult;
  provider_call_id: string | null;
  /** The provider's own words for how the call ended. */
  ended_reason: string | null;
  recording_url: string | null;
  transcript: CallDoc['transcript'];
  /**
   * The values as the provider extracted them, as JSON: its keys are a model's output, and may hold what a stored
   * field name may not (a `.`, a leading `$`). Checked against the call's extract_variables when written in.
   */
  extracted_json: string;
  received_at: Date;
}

export const callReportId = (callId: string, attempt: number) => `${callId}/${attempt}`;

/**
 * The fields that write a stored report into its call: the attempt's details, and, when the report completes an
 * attempt still undecided, the call's transcript and extracted variables (checked against extract_variables;
 * `notes` tells what was dropped). Null when the call has no such attempt, or has its report already.
 */
export function reportedFields(call: CallDoc, report: CallReportDoc): { set: Record<string, unknown>; notes: string[] } | null {
  const attempt = call.attempts[report.attempt - 1];
  if (attempt?.number !== report.attempt || attempt.reported_at) return null;
  const a = attemptPath(report.attempt);
  const completes = report.result === 'completed' && attempt.outcome === null;
  const extraction = completes ? coerceExtracted(call.extract_variables, JSON.parse(report.extracted_json)) : null;
  return {
    set: {
      [`${a}.reported_at`]: report.received_at,
      [`${a}.ended_reason`]: report.ended_reason,
      [`${a}.recording_url`]: report.recording_url,
      [`${a}.provider_status`]: 'ended',
      ...(report.provider_call_id && !attempt.provider_call_id ? { [`${a}.provider_call_id`]: report.provider_call_id } : {}),
      ...(extraction
        ? { transcript: report.transcript ?? [], extracted_variables: extraction.values, extraction_notes: extraction.notes }
        : {}),
    },
    notes: extraction?.notes ?? [],
  };
}
