import type { AnyBulkWriteOperation } from 'mongodb';
import type { Database } from '../infra/database';
import { recordId, type CandidateDoc } from '../infra/records/projects';
import { bulkWriteEach, insertEach, type WriteResult } from '../infra/duplicate-key';
import { personIndex } from '../infra/person-index';

export interface CandidateInput {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  custom_fields?: Record<string, string | number | boolean>;
}

export interface SavedCandidate {
  write: WriteResult;
  /** The record as it was before this request, when asked for; null for a new candidate. */
  previous: CandidateDoc | null;
}

/**
 * Creates or updates the project's candidates with the callers' ids (name, email, phone and, when given,
 * custom_fields). New candidates, the common case of a bulk request, cost one unordered insert for the whole
 * batch; those the derived `_id` shows to exist already are updated in one unordered bulk write, and read
 * first by exact `_id` when the caller needs them as they were (invite: for their previous email). (On MongoDB alone, one bulk of upserts would do both in one round
 * trip; FerretDB runs each upsert as a lookup and a write of its own: 200 upserts into an empty collection
 * took 0.8 s where one insertMany of 200 took 15 ms.)
 */
export async function saveCandidates(
  db: Database,
  workspaceId: string,
  projectId: string,
  inputs: CandidateInput[],
  opts: { previous: boolean; records: { kind: 'calls' | 'interviews'; ids: string[] } },
): Promise<SavedCandidate[]> {
  const { kind, ids: recordIds } = opts.records;
  const now = new Date();
  const ids = inputs.map((c) => recordId.candidate(projectId, c.id));
  const inserted = await insertEach(
    db.candidates,
    inputs.map((c, i) => ({
      _id: ids[i],
      workspace_id: workspaceId,
      project_id: projectId,
      candidate_id: c.id,
      name: c.name,
      email: c.email,
      phone: c.phone,
      custom_fields: c.custom_fields ?? {},
      // The candidate's calls or interviews, where an erasure or an opt-out finds them (infra/person-index.ts).
      [kind]: [recordIds[i]],
      created_at: now,
      updated_at: now,
    })),
  );
  const saved: SavedCandidate[] = inserted.map((write) => ({ write, previous: null }));
  const existing = inserted.flatMap((o, i) => (o === 'duplicate' ? [i] : []));
  if (existing.length === 0) return saved;
  const previous = opts.previous ? await Promise.all(existing.map((i) => db.candidates.findOne({ _id: ids[i] }))) : [];
  const ops: AnyBulkWriteOperation<CandidateDoc>[] = existing.map((i) => {
    const c = inputs[i];
    const set = { name: c.name, email: c.email, phone: c.phone, updated_at: now };
    return {
      updateOne: {
        filter: { _id: ids[i] },
        update: {
          $set: {
            ...set,
            ...(c.custom_fields ? { custom_fields: c.custom_fields } : {}),
          },
          // In the update the candidate costs anyway: a known candidate's new call costs no write of its own.
          $addToSet: { [kind]: recordIds[i] },
        },
      },
    };
  });
  const updated = await bulkWriteEach(db.candidates, ops);
  existing.forEach((i, n) => (saved[i] = { write: updated[n], previous: previous[n] ?? null }));
  return saved;
}

/**
 * Files in the person index (infra/person-index.ts) the candidates whose record is new, or whose email or phone
 * changed: a known candidate's keys list its record already, and its new call or interview went into the
 * record's own update (saveCandidates). So a repeated request writes nothing here. False when a write failed.
 */
export function fileContacts(db: Database, workspaceId: string, projectId: string, inputs: CandidateInput[], saved: SavedCandidate[]) {
  const changed = inputs.filter((c, i) => {
    const before = saved[i].previous;
    return saved[i].write === 'written' && (!before || before.email !== c.email || before.phone !== c.phone);
  });
  return personIndex(db).file(
    workspaceId,
    changed.map((c) => ({ recordId: recordId.candidate(projectId, c.id), candidateId: c.id, email: c.email, phone: c.phone })),
  );
}
