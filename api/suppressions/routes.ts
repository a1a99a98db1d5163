import type Router from '@koa/router';
import type { Context } from 'koa';
import type { ApiDeps } from '../deps';
import { callFamily } from '../errors';
import { cursorPosition, queryObject } from '../lists';
import { publicRouter } from '../public-router';
import { compileValidator } from '../validation';
import { encodeCursor } from '../../infra/lists/cursor';
import type { SuppressionDoc } from '../../infra/records/suppressions';
import type { WorkspaceDoc } from '../../infra/records/workspaces';
import { suppressionLedger } from '../../infra/suppressions';
import { NotFoundError } from '../../shared/errors';
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
 * The opt-out ledger of the workspace (docs/contact-rules.md), with the call family's error shapes. An entry is
 * in force from its 201: every dial, message and email reads the ledger right before it goes out.
 */
export function suppressionRoutes(deps: ApiDeps): Router {
  const router = publicRouter(deps, callFamily, { bodies: true });
  const ledger = suppressionLedger(deps.db);
  const workspaceOf = (ctx: Context) => (ctx.state.workspace as WorkspaceDoc)._id;

  router.post('/suppressions', async (ctx) => {
    const body = validateCreate(ctx.request.body);
    const entry = await ledger.add({
      workspaceId: workspaceOf(ctx),
      phone: body.phone,
      email: body.email,
      channels: body.channels ?? SUPPRESSION_CHANNELS,
      source: 'api',
      reason: body.reason,
    });
    await deps.optedOut([entry._id]);
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
    const after = await cursorPosition(deps.db, scope, cursor);
    const page = await ledger.page(workspaceId, { ...filters, limit, after });
    ctx.body = {
      success: true,
      data: page.items.map(suppressionView),
      next_cursor: page.next ? await encodeCursor(deps.db, { scope, position: page.next }) : null,
    };
  });

  router.delete('/suppressions/:id', async (ctx) => {
    const entry = await ledger.get(workspaceOf(ctx), ctx.params.id);
    if (!entry) throw new NotFoundError('Suppression not found');
    await ledger.remove(entry);
    ctx.status = 204;
  });
  return router;
}
