import { defineSearchAttributeKey, type SearchAttributePair } from '@temporalio/common';

/**
 * Custom search attributes set on every workflow, so operators can filter in the Temporal UI, for example
 * `WorkspaceId = "ws_…" AND AtsJobId = "job-42"`. scripts/services.ts registers them on the dev server and
 * worker/search-attributes.ts on any other cluster.
 */
export const WorkspaceId = defineSearchAttributeKey('WorkspaceId', 'KEYWORD');
export const ProjectId = defineSearchAttributeKey('ProjectId', 'KEYWORD');
export const AtsJobId = defineSearchAttributeKey('AtsJobId', 'KEYWORD');
export const CandidateId = defineSearchAttributeKey('CandidateId', 'KEYWORD');
export const CallStatus = defineSearchAttributeKey('CallStatus', 'KEYWORD');
export const InterviewStatus = defineSearchAttributeKey('InterviewStatus', 'KEYWORD');

export const searchAttributeKeys = [WorkspaceId, ProjectId, AtsJobId, CandidateId, CallStatus, InterviewStatus];

/** The attributes of a workflow that acts for a whole project (a bulk request's fan-out). */
export function projectSearchAttributes(r: { workspace_id: string; _id: string; ats_job_id: string }): SearchAttributePair[] {
  return [
    { key: WorkspaceId, value: r.workspace_id },
    { key: ProjectId, value: r._id },
    { key: AtsJobId, value: r.ats_job_id },
  ];
}

/** The attributes every per-candidate workflow carries, taken from its record. */
export function candidateSearchAttributes(r: {
  workspace_id: string;
  project_id: string;
  ats_job_id: string;
  candidate_id: string;
}): SearchAttributePair[] {
  return [
    { key: WorkspaceId, value: r.workspace_id },
    { key: ProjectId, value: r.project_id },
    { key: AtsJobId, value: r.ats_job_id },
    { key: CandidateId, value: r.candidate_id },
  ];
}
