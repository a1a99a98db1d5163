import { parseDeliveryId, type DeliveryState, type WebhookEventDoc } from '../infra/documents/webhooks';
import { ConflictError, NotFoundError } from '../shared/errors';
import type { OperationDeps } from './deps';

/**
 * POST …/deliveries/:delivery_id/retry: one more try now, whatever the delivery's state (a receiver that lost a
 * delivered event asks for it again). The delivery is pending again, and its endpoint's workflow is signalled; if
 * Temporal cannot be reached the delivery is put back as it was and the request fails (503).
 */
export function deliveryRetries({ stores, workflows }: Pick<OperationDeps, 'stores' | 'workflows'>) {
  return async (workspaceId: string, endpointId: string, id: string): Promise<{ event: WebhookEventDoc; delivery: DeliveryState }> => {
    const { webhooks } = stores;
    const endpoint = await webhooks.endpoint(workspaceId, endpointId);
    if (!endpoint) throw new NotFoundError('Webhook endpoint not found');
    const ids = parseDeliveryId(id);
    const event = ids?.endpointId === endpointId ? await webhooks.event(ids.eventId) : null;
    const delivery = event?.workspace_id === workspaceId ? event.deliveries[endpointId] : undefined;
    if (!event || !delivery) throw new NotFoundError('Delivery not found');
    if (endpoint.status !== 'enabled') throw new ConflictError(`The endpoint is disabled (${endpoint.disabled_reason}); register it again`);
    const now = new Date();
    await webhooks.setDelivery(event._id, endpointId, { status: 'pending', next_attempt_at: now });
    try {
      await workflows.retryDelivery(workspaceId, endpointId, event._id);
    } catch (err) {
      const { status, next_attempt_at } = delivery;
      await webhooks.setDelivery(event._id, endpointId, { status, next_attempt_at }).catch(() => undefined);
      throw err;
    }
    return { event, delivery: { ...delivery, status: 'pending', next_attempt_at: now } };
  };
}
