import type { Context } from 'koa';
import { listReads, withinLimits } from '../limits';
import type { ApiDeps } from '../deps';
import { compileValidator } from '../../shared/validation';
import { cursorPosition, queryObject } from '../lists';
import { deliveryId, type DeliveryState, type WebhookEventDoc } from '../../infra/documents/webhooks';
import { WebhookDeliveryListQuery, type WebhookDeliveryView } from '../../shared/webhooks/schema';
import { findEndpoint } from './endpoints';

export function deliveryView(endpointId: string, event: WebhookEventDoc, d: DeliveryState): WebhookDeliveryView {
  const iso = (t: Date | null) => (t ? t.toISOString() : null);
  return {
    id: deliveryId(endpointId, event._id),
    event_id: event._id,
    event_type: event.type,
    status: d.status,
    attempts: d.attempts,
    status_code: d.status_code,
    error: d.error,
    last_attempt_at: iso(d.last_attempt_at),
    next_attempt_at: iso(d.next_attempt_at),
    delivered_at: iso(d.delivered_at),
    created_at: event.created_at.toISOString(),
  };
}

const validateQuery = compileValidator(WebhookDeliveryListQuery);

/** GET /webhooks/:id/deliveries: newest first, by status if asked, paged by a cursor made for this endpoint and filter. */
export async function listDeliveries(deps: ApiDeps, workspaceId: string, endpointId: string, ctx: Context) {
  await findEndpoint(deps, workspaceId, endpointId);
  const { status, limit, cursor } = validateQuery(queryObject(ctx));
  const scope = JSON.stringify([workspaceId, 'webhook-deliveries', endpointId, status ?? null]);
  const after = await cursorPosition(
    deps.stores.signedTokens.cursors,
    scope,
    cursor,
    "is not a cursor of this endpoint's deliveries; pass next_cursor as it was given, with the same status",
  );
  // Filtered by status, a page may read many deliveries to find a few: an expensive read with its own limit.
  const read = () => deps.stores.webhooks.pageDeliveries(workspaceId, endpointId, { status, limit, after });
  const page = status ? await withinLimits(ctx, [listReads(deps.stores.limits)], read) : await read();
  return {
    success: true as const,
    data: page.items.map(({ event, delivery }) => deliveryView(endpointId, event, delivery)),
    next_cursor: page.next ? await deps.stores.signedTokens.cursors.encode({ scope, position: page.next }) : null,
  };
}
