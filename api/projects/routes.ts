import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { publicRouter } from '../public-router';
import { callFamily } from '../errors';
import type { WorkspaceDoc } from '../../infra/records/workspaces';
import { projectStore } from '../../stores/projects';
import { findOwned } from '../owned';
import { ProjectListQuery, type ProjectViewResponse } from '../../shared/lists/schema';
import { listHandler } from '../lists';
import { listReads, withinBudgets } from '../budgets';
import { projectView } from './view';

/** The workspace's projects (campaigns and interview projects): their list and each one with its counts. */
export function projectRoutes(deps: ApiDeps): Router {
  const { db, config } = deps;
  const router = publicRouter(deps, callFamily, { bodies: false });
  const list = listHandler('projects', ProjectListQuery, projectStore, (p) => projectView(db, p, config.PUBLIC_BASE_URL));

  router.get('/projects', async (ctx) => {
    // Every project on the page comes with its tallies: an expensive read with its own budget.
    ctx.body = await withinBudgets(ctx, [listReads(deps)], () => list(db, (ctx.state.workspace as WorkspaceDoc)._id, ctx));
  });

  router.get('/projects/:id', async (ctx) => {
    const ws = ctx.state.workspace as WorkspaceDoc;
    const project = await findOwned(db.projects, ctx.params.id, ws._id, 'Project not found');
    const body: ProjectViewResponse = { success: true, data: await projectView(db, project, config.PUBLIC_BASE_URL) };
    ctx.body = body;
  });
  return router;
}
