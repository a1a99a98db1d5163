import type { Database } from '../../infra/database';
import type { ProjectDoc } from '../../infra/records/projects';
import { projectCounts } from '../../infra/lists/project-counts';
import type { ProjectView } from '../../shared/lists/schema';
import { jobUrl, projectUrl } from '../../shared/public-urls';

/** GET /api/public/v1/projects/:id body, with its candidates counted by status (infra/lists/project-counts.ts). */
export async function projectView(db: Database, project: ProjectDoc, publicBaseUrl: string): Promise<ProjectView> {
  const campaign = project.kind === 'campaign';
  return {
    id: project._id,
    ats_job_id: project.ats_job_id,
    name: project.name,
    kind: project.kind,
    project_url: projectUrl(publicBaseUrl, project._id),
    job_url: campaign ? null : jobUrl(publicBaseUrl, project._id),
    candidates: await projectCounts(db, project),
    created_at: project.created_at.toISOString(),
    updated_at: project.updated_at.toISOString(),
  };
}
