import { defineSearchAttributeKey, type SearchAttributePair } from '@temporalio/common';

/**
 * Custom search attributes set on every workflow, so operators can filter in the Temporal UI, for example
 * `WorkspaceId = "ws_…" AND AtsJobId = "job-42"`. scripts/services.ts registers them on the dev server and
 * composition/search-attributes.ts (the API and the worker, at start) on any other cluster.
 */
/** Each key is named for its attribute plus `Key`, apart from the document fields and statuses of the same name. */
export const WorkspaceIdKey = defineSearchAttributeKey('WorkspaceId', 'KEYWORD');
export const ProjectIdKey = defineSearchAttributeKey('ProjectId', 'KEYWORD');
export const AtsJobIdKey = defineSearchAttributeKey('AtsJobId', 'KEYWORD');
export const CandidateIdKey = defineSearchAttributeKey('CandidateId', 'KEYWORD');
export const CallStatusKey = defineSearchAttributeKey('CallStatus', 'KEYWORD');
export const InterviewStatusKey = defineSearchAttributeKey('InterviewStatus', 'KEYWORD');

export const searchAttributeKeys = [WorkspaceIdKey, ProjectIdKey, AtsJobIdKey, CandidateIdKey, CallStatusKey, InterviewStatusKey];

/** The attributes of a workflow that acts for a whole project (a bulk request's fan-out). */
export function projectSearchAttributes(r: { workspace_id: string; _id: string; ats_job_id: string }): SearchAttributePair[] {
  return [
    { key: WorkspaceIdKey, value: r.workspace_id },
    { key: ProjectIdKey, value: r._id },
    { key: AtsJobIdKey, value: r.ats_job_id },
  ];
}

/**
 * The fields of a stored call or invitation (infra/documents/) that its workflow is started from and labelled
 * with; named here so workflows depend on the contract's shapes, not on storage.
 */
export interface CandidateResource {
  _id: string;
  workflow_id: string;
  workspace_id: string;
  project_id: string;
  ats_job_id: string;
  candidate_id: string;
  candidate: { name: string };
}

/** The attributes every per-candidate workflow carries, taken from its record. */
export function candidateSearchAttributes(
  r: Pick<CandidateResource, 'workspace_id' | 'project_id' | 'ats_job_id' | 'candidate_id'>,
): SearchAttributePair[] {
  return [
    { key: WorkspaceIdKey, value: r.workspace_id },
    { key: ProjectIdKey, value: r.project_id },
    { key: AtsJobIdKey, value: r.ats_job_id },
    { key: CandidateIdKey, value: r.candidate_id },
  ];
}
