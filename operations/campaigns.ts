import { documentId, type ProjectDoc } from '../infra/documents/projects';
import type { Stores } from '../stores';
import { ConflictError } from '../shared/errors';
import type { CampaignRequest } from '../shared/calls/schema';

/** Creates the workspace's campaign project for an ats_job_id, or returns the one that exists. */
export async function ensureCampaign(
  { projects }: Pick<Stores, 'projects'>,
  workspaceId: string,
  req: CampaignRequest,
): Promise<{ project: Readonly<ProjectDoc>; created: boolean }> {
  const now = new Date();
  const project: ProjectDoc = {
    _id: documentId.project(workspaceId, req.ats_job_id),
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
  if ((await projects.create(project)) === 'written') return { project, created: true };
  // The project's _id is derived from (workspace, ats_job_id), so concurrent creations converge on one project.
  const existing = await projects.get(project._id);
  if (!existing) throw new Error('project vanished after a duplicate-key error');
  if (existing.kind !== 'campaign') {
    throw new ConflictError(`ats_job_id ${req.ats_job_id} already belongs to an interview project, not a campaign`);
  }
  await projects.relist(existing);
  return { project: existing, created: false };
}
