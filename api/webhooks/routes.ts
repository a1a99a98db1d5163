import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { publicRouter } from '../public-router';
import { callFamily } from '../errors';
import { compileValidator } from '../../shared/validation';
import { WebhookCreateRequest, WebhookRotateRequest } from '../../shared/webhooks/schema';
import { createEndpoint, deleteEndpoint, endpointView, findEndpoint, listEndpoints, rotateSecret } from './endpoints';
import { deliveryView, listDeliveries } from './deliveries';
import { withinLimits } from '../limits';

const validateCreate = compileValidator(WebhookCreateRequest);
const validateRotate = compileValidator(WebhookRotateRequest);

/** Webhook endpoints and their delivery logs, with the call family's error shapes (`code`, `errors[]`). */
export function webhookRoutes(deps: ApiDeps): Router {
  const router = publicRouter(deps, callFamily, { bodies: true });
  const workspaceOf = (ctx: { state: { workspace: { _id: string } } }) => ctx.state.workspace._id;

  router.post('/webhooks', async (ctx) => {
    const endpoint = await createEndpoint(deps, workspaceOf(ctx), validateCreate(ctx.request.body));
    ctx.status = 201;
    // The only time the secret is shown: an Idempotency-Key keeps the answer without it.
    const data = endpointView(endpoint);
    ctx.body = { success: true, data: { ...data, secret: endpoint.secrets[0].value } };
    ctx.state.replayAnswer = { success: true, data: { ...data, secret: null } };
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
    const body = validateRotate(ctx.request.body ?? {});
    const { secret, previousExpiresAt } = await rotateSecret(deps, workspaceOf(ctx), ctx.params.id, {
      expirePrevious: body.expire_previous ?? false,
    });
    const data = { id: ctx.params.id, previous_secret_expires_at: previousExpiresAt.toISOString() };
    ctx.body = { success: true, data: { ...data, secret } };
    ctx.state.replayAnswer = { success: true, data: { ...data, secret: null } };
  });

  router.get('/webhooks/:id/deliveries', async (ctx) => {
    ctx.body = await listDeliveries(deps, workspaceOf(ctx), ctx.params.id, ctx);
  });

  router.post('/webhooks/:id/deliveries/:delivery_id/retry', async (ctx) => {
    const take = { limit: deps.stores.limits.deliveryRetries, name: 'delivery-retries', counts: 'delivery retries per minute' };
    const retried = await withinLimits(ctx, [take], () =>
      deps.operations.retryDelivery(workspaceOf(ctx), ctx.params.id, ctx.params.delivery_id),
    );
    const delivery = deliveryView(ctx.params.id, retried.event, retried.delivery);
    ctx.status = 202;
    ctx.body = { success: true, data: delivery };
  });
  return router;
}
