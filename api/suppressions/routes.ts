import { listReads, withinLimits } from '../limits';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { ApiDeps } from '../deps';
import { callFamily } from '../errors';
import { cursorPosition, queryObject } from '../lists';
import { publicRouter } from '../public-router';
import { compileValidator } from '../../shared/validation';
import type { SuppressionDoc } from '../../infra/documents/suppressions';
import {
  SUPPRESSION_CHANNELS,
  SuppressionCreateRequest,
  suppressionCreateRules,
  SuppressionListQuery,
  type SuppressionView,
} from '../../shared/suppressions/schema';

const validateCreate = compileValidator(SuppressionCreateRequest, suppressionCreateRules);
const validateQuery = compileValidator(SuppressionListQuery);

export function suppressionView(s: SuppressionDoc): SuppressionView {
  return {
    id: s._id,
    phone: s.phone,
    email: s.email,
    channels: s.channels,
    source: s.source,
    reason: s.reason,
    created_at: s.created_at.toISOString(),
  };
}

/**
 * The workspace's suppression list (docs/contact-rules.md), with the call family's error shapes. An entry is in
 * force from its 201: every dial, message and email reads the list right before it goes out.
 */
export function suppressionRoutes(deps: ApiDeps): Router {
  const router = publicRouter(deps, callFamily, { bodies: true });
  const { suppressions } = deps.stores;
  const workspaceOf = (ctx: Context) => ctx.state.workspace._id;

  router.post('/suppressions', async (ctx) => {
    const body = validateCreate(ctx.request.body);
    const [entry] = await deps.operations.suppressions.file({
      workspaceId: workspaceOf(ctx),
      phone: body.phone,
      email: body.email,
      channels: body.channels ?? SUPPRESSION_CHANNELS,
      source: 'api',
      reason: body.reason,
    });
    ctx.status = 201;
    ctx.body = { success: true, data: suppressionView(entry) };
  });

  router.get('/suppressions', async (ctx) => {
    const workspaceId = workspaceOf(ctx);
    const { cursor, limit, ...filters } = validateQuery(queryObject(ctx));
    const scope = JSON.stringify([
      workspaceId,
      'suppressions',
      filters.phone ?? null,
      filters.email?.toLowerCase() ?? null,
      filters.source ?? null,
    ]);
    const after = await cursorPosition(deps.stores.signedTokens.cursors, scope, cursor);
    const read = () => suppressions.page(workspaceId, { ...filters, limit, after });
    // By phone or email, the entries filed under its keys are read; by source alone, the list is walked.
    const walks = filters.source !== undefined && !filters.phone && !filters.email;
    const page = walks ? await withinLimits(ctx, [listReads(deps.stores.limits)], read) : await read();
    ctx.body = {
      success: true,
      data: page.items.map(suppressionView),
      next_cursor: page.next ? await deps.stores.signedTokens.cursors.encode({ scope, position: page.next }) : null,
    };
  });

  router.delete('/suppressions/:id', async (ctx) => {
    await deps.operations.suppressions.lift(workspaceOf(ctx), ctx.params.id);
    ctx.status = 204;
  });
  return router;
}
