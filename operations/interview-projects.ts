import type { ProjectStore } from '../stores/projects';
import { documentId, type ProjectDoc } from '../infra/documents/projects';
import { ConflictError } from '../shared/errors';
import type { JobDetails } from '../shared/jobs/schema';
import type { InviteRequest } from '../shared/interviews/schema';

export function jobDetails(req: InviteRequest): JobDetails {
  return {
    title: req.job_title.trim(),
    description: req.job_description.trim(),
    min_experience: req.min_experience,
    max_experience: req.max_experience,
    seniority_level: req.seniority_level,
    work_type: req.work_type,
    employment_type: req.employment_type,
    location: req.location.trim(),
    skills_required: req.skills_required.map((s) => s.trim()),
    skills_good_to_have: req.skills_good_to_have.map((s) => s.trim()),
  };
}

/**
 * The workspace's interview project for an ats_job_id: created on first use, afterwards renamed to the
 * latest job_title and given the latest job details. A campaign project with that ats_job_id is a conflict.
 * Its _id is derived from (workspace, ats_job_id): one exact-_id read, then one insert or one update.
 */
export async function ensureInterviewProject(
  projects: ProjectStore,
  workspaceId: string,
  req: InviteRequest,
): Promise<Readonly<ProjectDoc>> {
  const job = jobDetails(req);
  const _id = documentId.project(workspaceId, req.ats_job_id);
  for (let attempt = 0; ; attempt++) {
    const now = new Date();
    const existing = await projects.get(_id);
    if (existing?.kind === 'campaign') {
      throw new ConflictError(`ats_job_id ${req.ats_job_id} already belongs to a call campaign project, not an interview project`);
    }
    const latest = { name: job.title, job_title: job.title, job };
    if (existing) {
      // The change goes to the feed, and the project into its lists again in case its creator died before that.
      const changed = await projects.change(existing, latest);
      return changed ?? { ...existing, ...latest };
    }
    const project: ProjectDoc = {
      _id,
      workspace_id: workspaceId,
      ats_job_id: req.ats_job_id,
      kind: 'interview',
      company_name: null,
      question_set: null,
      created_at: now,
      updated_at: now,
      ...latest,
    };
    // A concurrent request created it first: the next read finds it.
    if ((await projects.create(project)) === 'written') return project;
    if (attempt > 0) throw new Error(`project ${_id} is neither stored nor readable`);
  }
}
