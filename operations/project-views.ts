import type { CallDoc } from '../infra/documents/calls';
import type { InterviewDoc } from '../infra/documents/interviews';
import type { ProjectDoc } from '../infra/documents/projects';
import type { Position } from '../infra/lists/time-index';
import { CALL_STATUSES } from '../shared/calls/schema';
import { INTERVIEW_STATUSES } from '../shared/interviews/schema';
import type { OperationDeps } from './deps';

/** One page of a project's candidates as the dashboard shows it, with the project's counts. */
export interface ProjectView {
  project: ProjectDoc;
  counts: Awaited<ReturnType<OperationDeps['stores']['projects']['counts']>>;
  /** The status asked for, when it is one of the project's kind; null for every status. */
  status: string | null;
  calls: CallDoc[];
  interviews: InterviewDoc[];
  next: Position | null;
}

/**
 * The dashboard's view of a project (web/projects/routes.tsx): its counts, and a page of its calls or
 * interviews, by status if asked, read through the same lists as the API's GET /calls and /interviews.
 */
export function projectViews({ stores }: Pick<OperationDeps, 'stores'>) {
  return async (
    workspaceId: string,
    projectId: string,
    asked: unknown,
    limit: number,
    after: (status: string | null) => Promise<Position | null>,
  ): Promise<ProjectView | null> => {
    // Another workspace's project is the same "not found" as an unknown one.
    const project = await stores.projects.owned(workspaceId, projectId);
    if (!project) return null;
    const statuses: readonly string[] = project.kind === 'campaign' ? CALL_STATUSES : INTERVIEW_STATUSES;
    const status = typeof asked === 'string' && statuses.includes(asked) ? asked : null;
    const query = {
      match: { ats_job_id: project.ats_job_id, ...(status ? { status } : {}) },
      createdSince: null,
      updatedSince: null,
      limit,
      after: await after(status),
    };
    // The counts read the whole list and the rows only their page: read at once, the page waits for the longer.
    const [counts, page] = await Promise.all([
      stores.projects.counts(project),
      project.kind === 'campaign'
        ? stores.calls.page(workspaceId, query).then((p) => ({ calls: p.items as CallDoc[], interviews: [], next: p.next }))
        : stores.interviews.page(workspaceId, query).then((p) => ({ calls: [], interviews: p.items as InterviewDoc[], next: p.next })),
    ]);
    return { project, counts, status, ...page };
  };
}

export type ProjectViews = ReturnType<typeof projectViews>;
