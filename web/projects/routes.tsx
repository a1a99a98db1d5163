import Router from '@koa/router';
import type { Context } from 'koa';
import { callPages } from '../../stores/calls';
import { interviewPages } from '../../stores/interviews';
import { projectStore } from '../../stores/projects';
import { projectCounts } from '../../infra/lists/project-counts';
import { decodeCursor, encodeCursor } from '../../infra/lists/cursor';
import type { Position } from '../../infra/lists/time-index';
import type { CallDoc } from '../../infra/records/calls';
import type { InterviewDoc } from '../../infra/records/interviews';
import { NotFoundError } from '../../shared/errors';
import { CALL_STATUSES } from '../../shared/calls/schema';
import { INTERVIEW_STATUSES } from '../../shared/interviews/schema';
import { sendAnswerRecording } from '../../infra/recordings';
import type { WebDeps } from '../deps';
import { sendPage } from '../layout';
import { requireSession, signedIn } from '../sessions/guard';
import { ProjectPage, ProjectsPage, type DashboardFrame } from './pages';

const PAGE = 100;

/**
 * The dashboard at `project_url`: the workspace's projects, and each project's candidates with their calls or
 * interviews, 100 at a time, read through the same lists as the API's GET /projects, /calls and /interviews.
 */
export function projectRoutes(deps: WebDeps): Router {
  const { db, config } = deps;
  const router = new Router();
  router.use(['/projects', '/projects/:id', '/projects/:id/interviews/:interviewId/answers/:index/recording'], requireSession(deps));

  const frameOf = (ctx: Context): DashboardFrame => {
    const { session, workspace } = signedIn(ctx);
    const ui = config.TEMPORAL_UI_URL?.replace(/\/+$/, '');
    return {
      workspaceName: workspace.name,
      csrf: session.csrf,
      workflowLink: (id) =>
        ui ? `${ui}/namespaces/${encodeURIComponent(config.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(id)}` : null,
    };
  };
  /** A page's cursor, bound (signed) to the workspace and the page's query, as the API's are; a foreign one starts over. */
  const positionOf = async (ctx: Context, scope: string): Promise<Position | null> =>
    typeof ctx.query.cursor === 'string' ? decodeCursor(db, scope, ctx.query.cursor) : null;

  router.get('/projects', async (ctx) => {
    const ws = signedIn(ctx).workspace._id;
    const scope = JSON.stringify([ws, 'dashboard', 'projects']);
    const page = await projectStore(db).page(ws, {
      match: {},
      createdSince: null,
      updatedSince: null,
      limit: PAGE,
      after: await positionOf(ctx, scope),
    });
    const next = page.next ? await encodeCursor(db, { scope, position: page.next }) : null;
    sendPage(ctx, 200, <ProjectsPage frame={frameOf(ctx)} projects={page.items} next={next} />);
  });

  router.get('/projects/:id', async (ctx) => {
    const ws = signedIn(ctx).workspace._id;
    const project = await db.projects.findOne({ _id: ctx.params.id });
    // Another workspace's project is the same "not found" as an unknown one.
    if (!project || project.workspace_id !== ws) throw new NotFoundError('project not found');
    const statuses: readonly string[] = project.kind === 'campaign' ? CALL_STATUSES : INTERVIEW_STATUSES;
    const status = typeof ctx.query.status === 'string' && statuses.includes(ctx.query.status) ? ctx.query.status : null;
    const scope = JSON.stringify([ws, 'dashboard', project._id, status]);
    const query = {
      match: { ats_job_id: project.ats_job_id, ...(status ? { status } : {}) },
      createdSince: null,
      updatedSince: null,
      limit: PAGE,
      after: await positionOf(ctx, scope),
    };
    // The counts read the whole list and the rows only their page: read at once, the page waits for the longer.
    const [counts, page] = await Promise.all([
      projectCounts(db, project),
      project.kind === 'campaign'
        ? callPages(db)
            .page(ws, query)
            .then((p) => ({ kind: 'calls' as const, ...p }))
        : interviewPages(db)
            .page(ws, query)
            .then((p) => ({ kind: 'interviews' as const, ...p })),
    ]);
    const cursor = page.next ? await encodeCursor(db, { scope, position: page.next }) : null;
    const params = new URLSearchParams({ ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) });
    sendPage(
      ctx,
      200,
      <ProjectPage
        frame={frameOf(ctx)}
        project={project}
        counts={counts}
        status={status}
        calls={page.kind === 'calls' ? (page.items as CallDoc[]) : []}
        interviews={page.kind === 'interviews' ? (page.items as InterviewDoc[]) : []}
        next={cursor ? `/projects/${project._id}?${params}` : null}
      />,
    );
  });
  // A recorded answer, for the players on the project's page: the signed-in workspace's own only.
  router.get('/projects/:id/interviews/:interviewId/answers/:index/recording', async (ctx) => {
    const interview = await db.interviews.findOne({ _id: ctx.params.interviewId });
    if (!interview || interview.workspace_id !== signedIn(ctx).workspace._id || interview.project_id !== ctx.params.id) {
      throw new NotFoundError('recording not found');
    }
    if (!(await sendAnswerRecording(ctx, db, interview, ctx.params.index))) throw new NotFoundError('recording not found');
  });
  return router;
}
