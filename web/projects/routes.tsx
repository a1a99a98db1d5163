import Router from '@koa/router';
import type { Context } from 'koa';
import type { Position } from '../../infra/lists/time-index';
import type { CallDoc } from '../../infra/documents/calls';
import type { InterviewDoc } from '../../infra/documents/interviews';
import { NotFoundError } from '../../shared/errors';
import { CALL_STATUSES } from '../../shared/calls/schema';
import { INTERVIEW_STATUSES } from '../../shared/interviews/schema';
import type { WebDeps } from '../deps';
import { sendPage } from '../layout';
import { checkCsrf, requireSession, signedIn } from '../sessions/guard';
import { formBody, sameOrigin } from '../forms';
import { compileValidator } from '../../shared/validation';
import { InterviewReviewRequest } from '../../shared/interviews/review';

const validateReview = compileValidator(InterviewReviewRequest);
import { ProjectPage, ProjectsPage, type DashboardFrame } from './pages';

const PAGE = 100;

/**
 * The dashboard at `project_url`: the workspace's projects, and each project's candidates with their calls or
 * interviews, 100 at a time, read through the same lists as the API's GET /projects, /calls and /interviews.
 */
export function projectRoutes(deps: WebDeps): Router {
  const { stores, config } = deps;
  const { cursors } = stores.signedTokens;
  const router = new Router();
  router.use(
    [
      '/projects',
      '/projects/:id',
      '/projects/:id/interviews/:interviewId/answers/:index/recording',
      '/projects/:id/interviews/:interviewId/review',
    ],
    requireSession(deps),
  );

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
    typeof ctx.query.cursor === 'string' ? cursors.decode(scope, ctx.query.cursor) : null;

  router.get('/projects', async (ctx) => {
    const ws = signedIn(ctx).workspace._id;
    const scope = JSON.stringify([ws, 'dashboard', 'projects']);
    const page = await stores.projects.page(ws, {
      match: {},
      createdSince: null,
      updatedSince: null,
      limit: PAGE,
      after: await positionOf(ctx, scope),
    });
    const next = page.next ? await cursors.encode({ scope, position: page.next }) : null;
    sendPage(ctx, 200, <ProjectsPage frame={frameOf(ctx)} projects={page.items} next={next} />);
  });

  router.get('/projects/:id', async (ctx) => {
    const ws = signedIn(ctx).workspace._id;
    // Another workspace's project is the same "not found" as an unknown one.
    const project = await stores.projects.owned(ws, ctx.params.id);
    if (!project) throw new NotFoundError('project not found');
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
      stores.projects.counts(project),
      project.kind === 'campaign'
        ? stores.calls.page(ws, query).then((p) => ({ kind: 'calls' as const, ...p }))
        : stores.interviews.page(ws, query).then((p) => ({ kind: 'interviews' as const, ...p })),
    ]);
    const cursor = page.next ? await cursors.encode({ scope, position: page.next }) : null;
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
    const interview = await stores.interviews.owned(signedIn(ctx).workspace._id, ctx.params.interviewId);
    if (!interview || interview.project_id !== ctx.params.id) throw new NotFoundError('recording not found');
    const download = await stores.recordings.answerDownload(interview, ctx.params.index, ctx.get('Range') || undefined);
    if (!download) throw new NotFoundError('recording not found');
    ctx.status = download.status;
    ctx.set(download.headers);
    ctx.body = download.body ?? '';
  });

  // A person's decision, through the API's operation and its rules; back to the interview on its page.
  router.post('/projects/:id/interviews/:interviewId/review', sameOrigin, formBody, checkCsrf, async (ctx) => {
    const { decision, reviewer, note } = (ctx.request.body ?? {}) as Record<string, unknown>;
    const review = validateReview({ decision, reviewer, ...(typeof note === 'string' && note.trim() ? { note } : {}) });
    const ws = signedIn(ctx).workspace._id;
    const found = await stores.interviews.owned(ws, ctx.params.interviewId);
    if (!found || found.project_id !== ctx.params.id) throw new NotFoundError('interview not found');
    const interview = await deps.operations.reviewInterview(ws, found._id, review);
    ctx.status = 303;
    ctx.redirect(`/projects/${interview.project_id}#${interview._id}`);
  });
  return router;
}
