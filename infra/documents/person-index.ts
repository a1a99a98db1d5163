/**
 * Where a person's calls and interviews are (stores/person-index.ts): one document per keyed hash of a contact,
 * listing the candidate documents (one per project) that carry it; each candidate document lists its calls and
 * interviews.
 */
export interface PersonIndexDoc {
  _id: string;
  workspace_id: string;
  candidates: string[];
}
