import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { callFamily } from '../errors';
import { publicRouter } from '../public-router';
import { withinLimits } from '../limits';
import { compileValidator } from '../../shared/validation';
import { ErasureRequest, erasureRules } from '../../shared/erasure/schema';

const validate = compileValidator(ErasureRequest, erasureRules);

/** POST /api/public/v1/candidates/erase: a person's data out of the workspace (operations/erasure.ts, docs/erasure.md). */
export function erasureRoutes(deps: ApiDeps): Router {
  const router = publicRouter(deps, callFamily, { bodies: true });
  router.post('/candidates/erase', async (ctx) => {
    const target = validate(ctx.request.body);
    const take = { limit: deps.stores.limits.erasures, name: 'erasures', counts: 'erasures per minute' };
    // Without a condition, erase answers counts, never null.
    const counts = (await withinLimits(ctx, [take], () => deps.operations.erasure.erase(ctx.state.workspace._id, target)))!;
    deps.logger.info({ ...counts }, 'candidate erased');
    ctx.body = { success: true, data: counts };
  });
  return router;
}
