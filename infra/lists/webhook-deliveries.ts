import type { Database } from '../database';
import type { WebhookDeliveryDoc } from '../records/webhooks';
import { itemList, type ItemList } from './item-list';
import { indexOf } from './index-of';

/** The deliveries of each webhook endpoint, newest first (GET /webhooks/:id/deliveries): every write of them goes through here. */
export function deliveryList(db: Database): ItemList<WebhookDeliveryDoc> {
  return itemList(indexOf(db), {
    name: 'webhook-deliveries',
    collection: db.webhookDeliveries,
    snapshots: db.listSnapshots,
    group: 'endpoint_id',
    fields: (d) => ({ endpoint_id: d.endpoint_id, status: d.status }),
    // A delivered one is done; a failed one changes only when it is sent again by hand.
    settled: (f) => f.status !== 'pending',
  });
}
