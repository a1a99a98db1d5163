import Router from '@koa/router';
import type { Context } from 'koa';
import type { Position } from '../../infra/lists/time-index';
import { NotFoundError } from '../../shared/errors';
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
      '/projects/:id/interviews/:interviewId/recording',
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
    const scopeOf = (status: string | null) => JSON.stringify([ws, 'dashboard', ctx.params.id, status]);
    const view = await deps.operations.projectView(ws, ctx.params.id, ctx.query.status, PAGE, (status) => positionOf(ctx, scopeOf(status)));
    if (!view) throw new NotFoundError('project not found');
    const { project, status, next } = view;
    const cursor = next ? await cursors.encode({ scope: scopeOf(status), position: next }) : null;
    const params = new URLSearchParams({ ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) });
    const more = cursor ? `/projects/${project._id}?${params}` : null;
    sendPage(ctx, 200, <ProjectPage frame={frameOf(ctx)} {...view} next={more} />);
  });
  // A recorded answer or a live interview's conversation, for the players on the project's page: the signed-in
  // workspace's own only, through the API's download (operations/recording-downloads.ts).
  router.get(
    ['/projects/:id/interviews/:interviewId/answers/:index/recording', '/projects/:id/interviews/:interviewId/recording'],
    async (ctx) => {
      const of = ctx.params.index === undefined ? 'conversation' : { answer: ctx.params.index };
      const at = { workspaceId: signedIn(ctx).workspace._id, interviewId: ctx.params.interviewId, projectId: ctx.params.id };
      const download = await deps.operations.recordingDownload(at, of, ctx.get('Range') || undefined);
      ctx.status = download.status;
      ctx.set(download.headers);
      ctx.body = download.body ?? '';
    },
  );

  // A person's decision, through the API's operation and its rules; back to the interview on its page.
  router.post('/projects/:id/interviews/:interviewId/review', sameOrigin, formBody, checkCsrf, async (ctx) => {
    const { decision, reviewer, note } = (ctx.request.body ?? {}) as Record<string, unknown>;
    const review = validateReview({ decision, reviewer, ...(typeof note === 'string' && note.trim() ? { note } : {}) });
    const { workspace, session } = signedIn(ctx);
    const found = await stores.interviews.owned(workspace._id, ctx.params.interviewId);
    if (!found || found.project_id !== ctx.params.id) throw new NotFoundError('interview not found');
    const madeBy = { via: 'dashboard' as const, key_id: session.key_id };
    const interview = await deps.operations.reviewInterview(workspace._id, found._id, review, madeBy);
    ctx.status = 303;
    ctx.redirect(`/projects/${interview.project_id}#${interview._id}`);
  });
  return router;
}
