import type { Database } from '../infra/database';
import { keyedId } from '../infra/ids';
import { indexOf } from '../infra/lists/index-of';
import type { Position } from '../infra/lists/time-index';
import type { DeliveryState, WebhookEventDoc } from '../infra/documents/webhooks';
import type { DeliveryStatus } from '../shared/webhooks/schema';

/**
 * Each endpoint's deliveries, newest first (GET /webhooks/:id/deliveries): one entry per event in the time
 * index of infra/lists/ (docs/lists.md), written when the event is made, under a key per endpoint. A delivery's
 * state lives in its event, so a try changes nothing here; a status filter is decided on the events read.
 */

/** Entries one page may look at before it ends early with a cursor (a rare status among many deliveries). */
const MAX_SCANNED = 5_000;

const keyOf = (workspaceId: string, endpointId: string) => keyedId('webhook-deliveries', workspaceId, endpointId);

export async function logDeliveries(db: Database, event: WebhookEventDoc): Promise<void> {
  await indexOf(db).add(
    Object.keys(event.deliveries).map((endpointId) => ({
      key: keyOf(event.workspace_id, endpointId),
      id: event._id,
      at: event.created_at.getTime(),
      value: event.type,
    })),
  );
}

export interface DeliveryPage {
  items: Array<{ event: WebhookEventDoc; delivery: DeliveryState }>;
  next: Position | null;
}

export async function pageDeliveries(
  db: Database,
  workspaceId: string,
  endpointId: string,
  q: { status?: DeliveryStatus; limit: number; after: Position | null },
): Promise<DeliveryPage> {
  const items: DeliveryPage['items'] = [];
  let scanned = 0;
  let last: Position | null = null;
  // Events are read a page's worth at a time, in parallel, as the walk finds them.
  let round: Array<{ at: Position; read: Promise<WebhookEventDoc | null> }> = [];
  const decide = async (): Promise<boolean> => {
    for (const { at, read } of round) {
      const event = await read;
      const delivery = event?.workspace_id === workspaceId ? event.deliveries[endpointId] : undefined;
      if (delivery && (!q.status || delivery.status === q.status)) {
        if (items.length === q.limit) return false;
        items.push({ event: event!, delivery });
      }
      last = at;
    }
    round = [];
    return true;
  };
  for await (const e of indexOf(db).walk(keyOf(workspaceId, endpointId), 'desc', q.after)) {
    const read = db.webhookEvents.findOne({ _id: e.id });
    // A page that ends before it reads this one leaves the read unawaited: handled, so no unhandled rejection.
    read.catch(() => undefined);
    round.push({ at: { at: e.at, id: e.id }, read });
    if (round.length >= q.limit - items.length + 1 || ++scanned >= MAX_SCANNED) {
      if (!(await decide()) || scanned >= MAX_SCANNED) return { items, next: last };
    }
  }
  await decide();
  return { items, next: items.length === q.limit ? last : null };
}
