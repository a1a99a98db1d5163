import type { Database } from '../database';
import type { ProjectDoc } from '../records/projects';
import { CALL_STATUSES } from '../../shared/calls/schema';
import { INTERVIEW_STATUSES } from '../../shared/interviews/schema';
import { callList } from './calls';
import { interviewList } from './interviews';

export interface ProjectCounts {
  total: number;
  /** Every status of the project's kind, 0 where none is. */
  by_status: Record<string, number>;
}

/**
 * A project's candidates by status, from its list of calls or interviews, whose entries carry each item's
 * status: one read per bucket of the list and none per item. The API's project view and the dashboard show it.
 */
export async function projectCounts(db: Database, project: ProjectDoc): Promise<ProjectCounts> {
  const campaign = project.kind === 'campaign';
  const list = campaign ? callList(db) : interviewList(db);
  const byStatus: Record<string, number> = Object.fromEntries((campaign ? CALL_STATUSES : INTERVIEW_STATUSES).map((s) => [s, 0]));
  let total = 0;
  for await (const fields of list.fieldsOfJob(project.workspace_id, project.ats_job_id)) {
    byStatus[fields.status] = (byStatus[fields.status] ?? 0) + 1;
    total++;
  }
  return { total, by_status: byStatus };
}
