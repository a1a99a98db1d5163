/**
 * Where a person's records are (infra/person-index.ts): one document per HMAC-named key, listing the
 * candidate records (one per project) that carry it; each candidate record lists its calls and interviews.
 */
export interface PersonIndexDoc {
  _id: string;
  workspace_id: string;
  candidates: string[];
}
