import { MongoServerError } from 'mongodb';
import type { Database } from '../../infra/database';
import type { ProjectDoc } from '../../infra/records';
import { newId } from '../../infra/ids';
import { ConflictError } from '../../shared/errors';
import type { CampaignRequest } from '../../shared/schemas/call-initiate';

/** Creates the workspace's campaign project for an ats_job_id, or returns the one that exists. */
export async function ensureCampaign(db: Database, workspaceId: string, req: CampaignRequest): Promise<{ project: ProjectDoc; created: boolean }> {
  const now = new Date();
  const project: ProjectDoc = {
    _id: newId('prj'),
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
  try {
    await db.projects.insertOne(project);
    return { project, created: true };
  } catch (err) {
    if (!(err instanceof MongoServerError && err.code === 11000)) throw err;
  }
  // The unique (workspace_id, ats_job_id) index makes concurrent creations converge on one project.
  const existing = await db.projects.findOne({ workspace_id: workspaceId, ats_job_id: req.ats_job_id });
  if (!existing) throw new Error('project vanished after a duplicate-key error');
  if (existing.kind !== 'campaign') {
    throw new ConflictError(`ats_job_id ${req.ats_job_id} already belongs to an interview project, not a campaign`);
  }
  return { project: existing, created: false };
}
