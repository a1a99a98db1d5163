import type { ApiDeps } from '../deps';
import { deliveryList } from '../../infra/lists/webhook-deliveries';
import type { WebhookDeliveryDoc } from '../../infra/records/webhooks';
import { ConflictError, NotFoundError } from '../../shared/errors';
import type { WebhookDeliveryView } from '../../shared/webhooks/schema';
import { findEndpoint } from './endpoints';

export function deliveryView(d: WebhookDeliveryDoc): WebhookDeliveryView {
  const iso = (t: Date | null) => (t ? t.toISOString() : null);
  return {
    id: d._id,
    event_id: d.event_id,
    event_type: d.event_type,
    status: d.status,
    attempts: d.attempts,
    status_code: d.status_code,
    error: d.error,
    last_attempt_at: iso(d.last_attempt_at),
    next_attempt_at: iso(d.next_attempt_at),
    delivered_at: iso(d.delivered_at),
    created_at: d.created_at.toISOString(),
  };
}

/**
 * POST …/deliveries/:delivery_id/retry: one more try now, whatever the delivery's state (a receiver that lost a
 * delivered event asks for it again). The delivery is pending again, and its endpoint's workflow is told; if
 * Temporal cannot be reached the delivery is put back as it was and the request fails (503).
 */
export async function retryDelivery(deps: ApiDeps, workspaceId: string, endpointId: string, id: string): Promise<WebhookDeliveryDoc> {
  const endpoint = await findEndpoint(deps, workspaceId, endpointId);
  const delivery = await deps.db.webhookDeliveries.findOne({ _id: id });
  if (delivery?.workspace_id !== workspaceId || delivery.endpoint_id !== endpointId) throw new NotFoundError('Delivery not found');
  if (endpoint.status !== 'enabled') throw new ConflictError(`The endpoint is disabled (${endpoint.disabled_reason}); register it again`);
  const list = deliveryList(deps.db);
  const now = new Date();
  const at = await list.update(delivery, { status: 'pending' }, (at) => ({
    $set: { status: 'pending', next_attempt_at: now, updated_at: at },
  }));
  const pending: WebhookDeliveryDoc = { ...delivery, status: 'pending', next_attempt_at: now, updated_at: at };
  try {
    await deps.retryDelivery(workspaceId, endpointId, delivery.event_id);
  } catch (err) {
    const { status, next_attempt_at } = delivery;
    await list.update(pending, { status }, (at) => ({ $set: { status, next_attempt_at, updated_at: at } })).catch(() => undefined);
    throw err;
  }
  return pending;
}
