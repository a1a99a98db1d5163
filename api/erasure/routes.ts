import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { callFamily } from '../errors';
import { publicRouter } from '../public-router';
import { compileValidator } from '../validation';
import type { WorkspaceDoc } from '../../infra/records/workspaces';
import { erasure } from '../../stores/erasure';
import { ErasureRequest, erasureRules } from '../../shared/erasure/schema';

const validate = compileValidator(ErasureRequest, erasureRules);

/** POST /api/public/v1/candidates/erase: a person's data out of the workspace (docs/erasure.md). */
export function erasureRoutes(deps: ApiDeps): Router {
  const router = publicRouter(deps, callFamily, { bodies: true });
  const erase = erasure({ db: deps.db, announce: deps.announce, publicBaseUrl: deps.config.PUBLIC_BASE_URL }, deps.erasureStops);
  router.post('/candidates/erase', async (ctx) => {
    const target = validate(ctx.request.body);
    // Without a condition, erase answers counts, never null.
    const counts = (await erase.erase((ctx.state.workspace as WorkspaceDoc)._id, target))!;
    deps.logger.info({ ...counts }, 'candidate erased');
    ctx.body = { success: true, data: counts };
  });
  return router;
}
