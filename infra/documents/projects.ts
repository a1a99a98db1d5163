import type { JobDetails, Question } from '../../shared/jobs/schema';
import { keyedId } from '../ids';
import type { WorkspaceDoc } from './workspaces';

/** Stored projects (one per workspace and ats_job_id) and their candidates. */

/**
 * Ids derived from the business key that must be unique, so the unique `_id` index decides uniqueness on
 * MongoDB and FerretDB alike, and every lookup is an exact `_id` match that an index answers.
 */
export const documentId = {
  /** The workspace's project of an ats_job_id. */
  project: (workspaceId: string, atsJobId: string) => keyedId('prj', workspaceId, atsJobId),
  /** The project's candidate with the caller's id. */
  candidate: (projectId: string, candidateId: string) => keyedId('cand', projectId, candidateId),
  /** The one interview of a candidate in a project. */
  interview: (projectId: string, candidateId: string) => keyedId('int', projectId, candidateId),
};

export interface ProjectDoc {
  _id: string;
  workspace_id: string;
  ats_job_id: string;
  kind: 'campaign' | 'interview';
  name: string;
  job_title: string | null;
  company_name: string | null;
  /** Interview projects: the job as the latest invite described it. */
  job: JobDetails | null;
  /** Interview projects: the generated questions, produced once per project. */
  question_set: QuestionSet | null;
  created_at: Date;
  updated_at: Date;
}

/** A project's generated interview questions; generation is claimed in infra/claims.ts so it happens once. */
export interface QuestionSet {
  questions: Question[];
  provider: string;
  generated_at: Date;
}

export interface CandidateDoc {
  _id: string;
  workspace_id: string;
  project_id: string;
  /** The caller's own id; unique within a project. */
  candidate_id: string;
  name: string;
  email: string;
  phone: string | null;
  custom_fields: Record<string, string | number | boolean>;
  /** The candidate's calls and interviews in this project (stores/person-index.ts); absent on older records. */
  calls?: string[];
  interviews?: string[];
  created_at: Date;
  updated_at: Date;
}

/** The company a project's candidates see: its own name when it was given one, else its workspace's sender's. */
export function companyOf(project: Pick<ProjectDoc, 'company_name'> | null, workspace: WorkspaceDoc | null): string | null {
  return project?.company_name ?? workspace?.sender.company ?? null;
}

/**
 * A project's tally, `_id` the project's: each candidate's status and its version, as of a place in the
 * workspace's change feed. Kept as one string, which FerretDB reads far faster than a document of thousands
 * of fields (docs/lists.md).
 */
export interface ProjectTallyDoc {
  _id: string;
  /** JSON of `{[item id]: [status, version]}`. */
  items: string;
  /** The feed has been read up to here. */
  next: { at: number; id: string };
  updated_at: Date;
}
