import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { publicRouter } from '../public-router';
import { callFamily } from '../errors';
import { compileValidator } from '../validation';
import type { WorkspaceDoc } from '../../infra/records/workspaces';
import { WebhookCreateRequest } from '../../shared/webhooks/schema';
import { createEndpoint, deleteEndpoint, endpointView, findEndpoint, listEndpoints, rotateSecret } from './endpoints';
import { listDeliveries, retryDelivery } from './deliveries';

const validateCreate = compileValidator(WebhookCreateRequest);

/** Webhook endpoints and their delivery logs, with the call family's error shapes (`code`, `errors[]`). */
export function webhookRoutes(deps: ApiDeps): Router {
  const router = publicRouter(deps, callFamily, { bodies: true });
  const workspaceOf = (ctx: { state: Record<string, unknown> }) => (ctx.state.workspace as WorkspaceDoc)._id;

  router.post('/webhooks', async (ctx) => {
    const endpoint = await createEndpoint(deps, workspaceOf(ctx), validateCreate(ctx.request.body));
    ctx.status = 201;
    // The only time the secret is shown.
    ctx.body = { success: true, data: { ...endpointView(endpoint), secret: endpoint.secrets[0].value } };
  });

  router.get('/webhooks', async (ctx) => {
    ctx.body = { success: true, data: (await listEndpoints(deps, workspaceOf(ctx))).map(endpointView) };
  });

  router.get('/webhooks/:id', async (ctx) => {
    ctx.body = { success: true, data: endpointView(await findEndpoint(deps, workspaceOf(ctx), ctx.params.id)) };
  });

  router.delete('/webhooks/:id', async (ctx) => {
    await deleteEndpoint(deps, workspaceOf(ctx), ctx.params.id);
    ctx.body = { success: true, data: { id: ctx.params.id, deleted: true } };
  });

  router.post('/webhooks/:id/rotate-secret', async (ctx) => {
    const { secret, previousExpiresAt } = await rotateSecret(deps, workspaceOf(ctx), ctx.params.id);
    ctx.body = { success: true, data: { id: ctx.params.id, secret, previous_secret_expires_at: previousExpiresAt.toISOString() } };
  });

  router.get('/webhooks/:id/deliveries', async (ctx) => {
    ctx.body = await listDeliveries(deps, workspaceOf(ctx), ctx.params.id, ctx);
  });

  router.post('/webhooks/:id/deliveries/:delivery_id/retry', async (ctx) => {
    const delivery = await retryDelivery(deps, workspaceOf(ctx), ctx.params.id, ctx.params.delivery_id);
    ctx.status = 202;
    ctx.body = { success: true, data: delivery };
  });
  return router;
}
