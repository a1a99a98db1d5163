import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { callFamily } from '../errors';
import { publicRouter } from '../public-router';
import type { WorkspaceDoc } from '../../infra/records/workspaces';
import type { WorkspaceResponse } from '../../shared/workspaces/schema';

/** GET /api/public/v1/workspace: which workspace a key belongs to, with its sender profile. */
export function workspaceRoutes(deps: ApiDeps): Router {
  const router = publicRouter(deps, callFamily, { bodies: false });
  router.get('/workspace', (ctx) => {
    const ws = ctx.state.workspace as WorkspaceDoc;
    ctx.body = {
      success: true as const,
      data: {
        workspace_id: ws._id,
        name: ws.name,
        sender: { first_name: ws.sender.first_name, last_name: ws.sender.last_name, company: ws.sender.company },
      },
    } satisfies WorkspaceResponse;
  });
  return router;
}
