import { MongoServerError } from 'mongodb';
import type { Database } from '../infra/database';
import type { CandidateDoc } from '../infra/records';
import { newId } from '../infra/ids';

export interface CandidateInput {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  custom_fields?: Record<string, string | number | boolean>;
}

/**
 * Creates or updates the project's candidate with the caller's id (name, email, phone and, when given,
 * custom_fields). Returns the record's id and the record as it was before, null when it is new.
 */
export async function upsertCandidate(
  db: Database,
  workspaceId: string,
  projectId: string,
  c: CandidateInput,
): Promise<{ id: string; previous: CandidateDoc | null }> {
  const now = new Date();
  const id = newId('cand');
  const filter = { project_id: projectId, candidate_id: c.id };
  const update = {
    $set: { name: c.name, email: c.email, phone: c.phone, updated_at: now, ...(c.custom_fields ? { custom_fields: c.custom_fields } : {}) },
    $setOnInsert: { _id: id, workspace_id: workspaceId, ...(c.custom_fields ? {} : { custom_fields: {} }), active_call_id: null, created_at: now },
  };
  const upsert = () => db.candidates.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'before' });
  let previous: CandidateDoc | null;
  try {
    previous = await upsert();
  } catch (err) {
    // Two requests inserting the same new candidate at once: the loser updates the winner's record.
    if (!(err instanceof MongoServerError && err.code === 11000)) throw err;
    previous = await upsert();
  }
  return { id: previous?._id ?? id, previous };
}
