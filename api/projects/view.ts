import type { Database } from '../../infra/database';
import type { ProjectDoc } from '../../infra/records/projects';
import { callList } from '../../infra/lists/calls';
import { interviewList } from '../../infra/lists/interviews';
import { CALL_STATUSES } from '../../shared/calls/schema';
import { INTERVIEW_STATUSES } from '../../shared/interviews/schema';
import type { ProjectView } from '../../shared/lists/schema';
import { jobUrl, projectUrl } from '../../shared/public-urls';

/**
 * GET /api/public/v1/projects/:id body. The counts come from the project's list of calls or interviews, whose
 * entries carry each item's status, so they cost one read per bucket of the list and none per item.
 */
export async function projectView(db: Database, project: ProjectDoc, publicBaseUrl: string): Promise<ProjectView> {
  const campaign = project.kind === 'campaign';
  const list = campaign ? callList(db) : interviewList(db);
  const byStatus: Record<string, number> = Object.fromEntries((campaign ? CALL_STATUSES : INTERVIEW_STATUSES).map((s) => [s, 0]));
  let total = 0;
  for await (const fields of list.fieldsOfJob(project.workspace_id, project.ats_job_id)) {
    byStatus[fields.status] = (byStatus[fields.status] ?? 0) + 1;
    total++;
  }
  return {
    id: project._id,
    ats_job_id: project.ats_job_id,
    name: project.name,
    kind: project.kind,
    project_url: projectUrl(publicBaseUrl, project._id),
    job_url: campaign ? null : jobUrl(publicBaseUrl, project._id),
    candidates: { total, by_status: byStatus },
    created_at: project.created_at.toISOString(),
    updated_at: project.updated_at.toISOString(),
  };
}
