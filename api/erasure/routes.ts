import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { callFamily } from '../errors';
import { publicRouter } from '../public-router';
import { withinLimits } from '../limits';
import { compileValidator } from '../../shared/validation';
import type { Static } from '@sinclair/typebox';
import { ErasureInProgressResponse, ErasureRequest, ErasureResponse, erasureRules } from '../../shared/erasure/schema';

const validate = compileValidator(ErasureRequest, erasureRules);
const IN_PROGRESS = 'The erasure goes on: a call of the person has an attempt under way, and the erasure ends once it has.';

/** POST /api/public/v1/candidates/erase: a person's data out of the workspace (operations/erasure.ts, docs/erasure.md). */
export function erasureRoutes(deps: ApiDeps): Router {
  const router = publicRouter(deps, callFamily, { bodies: true });
  router.post('/candidates/erase', async (ctx) => {
    const target = validate(ctx.request.body);
    const take = { limit: deps.stores.limits.erasures, name: 'erasures', counts: 'erasures per minute' };
    const { erasureId, counts } = await withinLimits(ctx, [take], () => deps.operations.erasure.request(ctx.state.workspace._id, target));
    if (!counts) {
      deps.logger.info({ erasure_id: erasureId }, 'candidate erasure goes on');
      ctx.status = 202;
      ctx.body = {
        success: true,
        data: { erasure_id: erasureId, status: 'in_progress', message: IN_PROGRESS },
      } satisfies Static<typeof ErasureInProgressResponse>;
      return;
    }
    deps.logger.info({ erasure_id: erasureId, ...counts }, 'candidate erased');
    ctx.body = { success: true, data: { erasure_id: erasureId, status: 'erased', ...counts } } satisfies Static<typeof ErasureResponse>;
  });
  return router;
}
