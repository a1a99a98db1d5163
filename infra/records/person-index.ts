/** Where a person's calls and interviews are (infra/person-index.ts): one document per HMAC-named key. */
export interface PersonIndexDoc {
  _id: string;
  workspace_id: string;
  calls: string[];
  interviews: string[];
}
