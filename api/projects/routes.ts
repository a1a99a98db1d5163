import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { publicRouter } from '../public-router';
import { callFamily } from '../errors';
import type { ProjectDoc } from '../../infra/documents/projects';
import { orNotFound } from '../owned';
import { ProjectListQuery, type ProjectViewResponse } from '../../shared/lists/schema';
import { listHandler } from '../lists';
import { listReads, withinLimits } from '../limits';
import { projectView } from './view';

/** The workspace's projects (campaigns and interview projects): their list and each one with its counts. */
export function projectRoutes(deps: ApiDeps): Router {
  const { stores, config } = deps;
  const router = publicRouter(deps, callFamily, { bodies: false });
  const list = listHandler('projects', ProjectListQuery, (p: ProjectDoc) => projectView(stores.projects, p, config.PUBLIC_BASE_URL));

  router.get('/projects', async (ctx) => {
    // Every project on the page comes with its tallies: an expensive read with its own limit.
    ctx.body = await withinLimits(ctx, [listReads(stores.limits)], () => list(stores.projects, stores.signedTokens, ctx));
  });

  router.get('/projects/:id', async (ctx) => {
    const project = await orNotFound(stores.projects.owned(ctx.state.workspace._id, ctx.params.id), 'Project not found');
    const body: ProjectViewResponse = { success: true, data: await projectView(stores.projects, project, config.PUBLIC_BASE_URL) };
    ctx.body = body;
  });
  return router;
}
