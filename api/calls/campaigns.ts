import type { Database } from '../../infra/database';
import { recordId, type ProjectDoc } from '../../infra/records/projects';
import { projectStore } from '../../stores/projects';
import { ConflictError } from '../../shared/errors';
import type { CampaignRequest } from '../../shared/calls/schema';

/** Creates the workspace's campaign project for an ats_job_id, or returns the one that exists. */
export async function ensureCampaign(
  db: Database,
  workspaceId: string,
  req: CampaignRequest,
): Promise<{ project: ProjectDoc; created: boolean }> {
  const now = new Date();
  const project: ProjectDoc = {
    _id: recordId.project(workspaceId, req.ats_job_id),
    workspace_id: workspaceId,
    ats_job_id: req.ats_job_id,
    kind: 'campaign',
    name: req.name,
    job_title: req.job_title ?? null,
    company_name: req.company_name ?? null,
    job: null,
    question_set: null,
    created_at: now,
    updated_at: now,
  };
  const projects = projectStore(db);
  if ((await projects.create(project)) === 'written') return { project, created: true };
  // The project's _id is derived from (workspace, ats_job_id), so concurrent creations converge on one project.
  const existing = await db.projects.findOne({ _id: project._id });
  if (!existing) throw new Error('project vanished after a duplicate-key error');
  if (existing.kind !== 'campaign') {
    throw new ConflictError(`ats_job_id ${req.ats_job_id} already belongs to an interview project, not a campaign`);
  }
  await projects.relist(existing);
  return { project: existing, created: false };
}

/** The workspace's project of an ats_job_id, of either kind, or null. */
export function findProject(db: Database, workspaceId: string, atsJobId: string): Promise<ProjectDoc | null> {
  return db.projects.findOne({ _id: recordId.project(workspaceId, atsJobId) });
}
