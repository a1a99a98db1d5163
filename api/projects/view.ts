import type { ProjectDoc } from '../../infra/documents/projects';
import type { ProjectStore } from '../../stores/projects';
import type { ProjectView } from '../../shared/lists/schema';
import { jobUrl, projectUrl } from '../../shared/public-urls';

/** GET /api/public/v1/projects/:id body, with its candidates counted by status (infra/lists/project-counts.ts). */
export async function projectView(projects: ProjectStore, project: Readonly<ProjectDoc>, publicBaseUrl: string): Promise<ProjectView> {
  const campaign = project.kind === 'campaign';
  return {
    id: project._id,
    ats_job_id: project.ats_job_id,
    name: project.name,
    kind: project.kind,
    project_url: projectUrl(publicBaseUrl, project._id),
    job_url: campaign ? null : jobUrl(publicBaseUrl, project._id),
    candidates: await projects.counts(project),
    created_at: project.created_at.toISOString(),
    updated_at: project.updated_at.toISOString(),
  };
}
