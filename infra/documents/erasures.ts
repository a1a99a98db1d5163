/**
 * A person's erasure under way (operations/erasure.ts, workflows/erasure.ts): the workflow that carries it out
 * is named by this document's id, so whom it erases never enters a workflow history. `target` is the request's
 * candidate id, email and phone, kept only until the erasure ends, when it is blanked and the counts written.
 */
export interface ErasureDoc {
  _id: string;
  workspace_id: string;
  target: { candidate_id?: string; email?: string; phone?: string } | null;
  status: 'running' | 'done';
  counts: { calls: number; interviews: number; recordings: number; provider_deletions: number } | null;
  created_at: Date;
  finished_at: Date | null;
}
