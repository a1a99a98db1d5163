import type { Database } from '../infra/database';
import { isDuplicateKey } from '../infra/duplicate-key';
import {
  subscribed,
  type DeliveryState,
  type WebhookEndpoint,
  type WebhookEndpointsDoc,
  type WebhookEventDoc,
} from '../infra/documents/webhooks';
import { logDeliveries } from './delivery-log';
import { eventId, type Announce, type Announcement, type EventToAnnounce, type SignalDelivery } from '../infra/webhooks/events';
import type { WebhookEventType } from '../shared/webhooks/schema';

/**
 * The announcer (infra/webhooks/events.ts says what announcing is): the store of `webhook_events`, the one
 * module that writes them as they are made. Built by composition/webhook-signals.ts with the signal of the
 * endpoints' delivery workflows, and handed to the stores that make events (stores/index.ts).
 */
export function webhookAnnouncer(db: Database, signal: SignalDelivery, clock: () => Date = () => new Date()): Announce {
  /**
   * Stores the event under its sequence; an event stored there already is this one (a repeated announcement),
   * unless a document from before `events` gave sequences holds another there: the next free one, then.
   */
  async function store(
    workspaceId: string,
    type: WebhookEventType,
    a: Announcement,
    first: number,
    endpoints: WebhookEndpoint[],
    now: Date,
  ): Promise<{ event: WebhookEventDoc; made: boolean }> {
    const pending: DeliveryState = {
      status: 'pending',
      attempts: 0,
      status_code: null,
      error: null,
      last_attempt_at: null,
      next_attempt_at: now,
      delivered_at: null,
    };
    for (let sequence = first; ; sequence++) {
      const id = eventId(a.resourceId, sequence);
      const event: WebhookEventDoc = {
        _id: id,
        workspace_id: workspaceId,
        type,
        key: a.key,
        body: JSON.stringify({ id, type, created_at: now.toISOString(), data: a.view(sequence, type) }),
        deliveries: Object.fromEntries(endpoints.map((e) => [e.id, pending])),
        created_at: now,
      };
      try {
        await db.webhookEvents.insertOne(event);
        return { event, made: true };
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const there = await db.webhookEvents.findOne({ _id: id });
      if (there?.key === a.key) return { event: there, made: false };
    }
  }

  async function announceOne(
    workspaceId: string,
    { type, about }: EventToAnnounce,
    all: WebhookEndpointsDoc | null,
  ): Promise<string | null> {
    let endpoints = subscribed(all, type);
    if (endpoints.length === 0) return null;
    const a = await about();
    if (!a) return null;
    const place = a.announced.events?.indexOf(a.key) ?? -1;
    if (place < 0) throw new Error(`event ${a.key} is not recorded on ${a.resourceId}`);
    const { event, made } = await store(workspaceId, type, a, place + 1, endpoints, clock());
    // A retried announcement finds its event made, with the endpoints it was made for: those are signalled again
    // (a delivery already made is not made twice), and it is logged again, harmlessly (the same entry).
    if (!made) endpoints = endpoints.filter((e) => event.deliveries[e.id]);
    await logDeliveries(db, event);
    await Promise.all(endpoints.map((e) => signal(workspaceId, e.id, event._id)));
    return event._id;
  }

  return async (workspaceId, ...events) => {
    const all = await db.shared.webhookEndpoints(workspaceId);
    const ids: Array<string | null> = [];
    for (const event of events) ids.push(await announceOne(workspaceId, event, all));
    return ids;
  };
}
