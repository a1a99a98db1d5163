import type { AnyBulkWriteOperation } from 'mongodb';
import type { Database } from '../infra/database';
import { recordId, type CandidateDoc } from '../infra/records';
import { bulkWriteEach, type BulkOutcome } from '../infra/duplicate-key';

export interface CandidateInput {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  custom_fields?: Record<string, string | number | boolean>;
  /** Calls only: the call this request placed for the candidate. */
  active_call_id?: string;
}

/** The project's stored candidates with these caller ids, read concurrently by exact `_id`. */
export async function readCandidates(db: Database, projectId: string, ids: string[]): Promise<Array<CandidateDoc | null>> {
  return Promise.all(ids.map((id) => db.candidates.findOne({ _id: recordId.candidate(projectId, id) })));
}

/**
 * Creates or updates the project's candidates with the callers' ids (name, email, phone and, when given,
 * custom_fields) in one unordered bulk write, each an upsert by its derived `_id`. Returns an outcome per input.
 */
export async function upsertCandidates(db: Database, workspaceId: string, projectId: string, inputs: CandidateInput[]): Promise<BulkOutcome[]> {
  const now = new Date();
  const ops: AnyBulkWriteOperation<CandidateDoc>[] = inputs.map((c) => ({
    updateOne: {
      filter: { _id: recordId.candidate(projectId, c.id) },
      update: {
        $set: {
          name: c.name,
          email: c.email,
          phone: c.phone,
          updated_at: now,
          ...(c.custom_fields ? { custom_fields: c.custom_fields } : {}),
          ...(c.active_call_id ? { active_call_id: c.active_call_id } : {}),
        },
        $setOnInsert: {
          workspace_id: workspaceId,
          project_id: projectId,
          candidate_id: c.id,
          ...(c.custom_fields ? {} : { custom_fields: {} }),
          ...(c.active_call_id ? {} : { active_call_id: null }),
          created_at: now,
        },
      },
      upsert: true,
    },
  }));
  const outcomes = await bulkWriteEach(db.candidates, ops);
  // Two requests inserting the same new candidate at once: the loser's upsert now finds the winner's record.
  const again = outcomes.flatMap((o, i) => (o === 'duplicate' ? [i] : []));
  if (again.length > 0) {
    const retried = await bulkWriteEach(db.candidates, again.map((i) => ops[i]));
    again.forEach((i, n) => (outcomes[i] = retried[n]));
  }
  return outcomes;
}
