import type { Database } from '../database';
import { insertEach, isDuplicateKey } from '../duplicate-key';
import { deliveryList } from '../lists/webhook-deliveries';
import { deliveryId, subscribed, type WebhookDeliveryDoc, type WebhookEventDoc } from '../records/webhooks';
import type { WebhookEventType } from '../../shared/webhooks/schema';

/**
 * Announcing what happened to a call or an interview: the event is stored once, a delivery is listed for each
 * endpoint that wants it, and each endpoint's delivery workflow is told. The code that makes a change
 * announces it right after, inside the same activity: a crash between the two makes the activity run again,
 * and the announcement's key (its type and what it is about) keeps it from being made twice.
 */

/** What the resource's document keeps of its events: their keys, and the sequence of the last one. */
export interface Announced {
  sequence?: number;
  events?: string[];
}

export interface Announcement {
  workspaceId: string;
  resourceId: string;
  type: WebhookEventType;
  /** What tells this happening from another of its type on the resource (an attempt's number, a deadline…). */
  occurrence: string | number;
  /** The resource's document as it is now (after the change). */
  announced: Announced;
  /** The resource as its GET returns it, with this event's sequence. */
  view(sequence: number): unknown;
  /** Records the event on the resource, last: `$push` the key to `events`, `$max` the sequence. */
  mark(key: string, sequence: number): Promise<void>;
}

/** Tells an endpoint's delivery workflow of a new event (composition/webhook-dispatch.ts). */
export type DispatchEvent = (workspaceId: string, endpointId: string, eventId: string) => Promise<void>;

/** Announces an event; the event's id, or null when no endpoint wants it (nothing is stored then). */
export type Announce = (a: Announcement) => Promise<string | null>;

/** An event's id, from its resource and its place among the resource's events. */
export const eventId = (resourceId: string, sequence: number) => `evt_${resourceId}_${sequence}`;

export function webhookAnnouncer(db: Database, dispatch: DispatchEvent, clock: () => Date = () => new Date()): Announce {
  const deliveries = deliveryList(db);
  /** Stores the event under the next free sequence; a retried announcement finds its own event again. */
  async function store(a: Announcement, key: string, now: Date): Promise<WebhookEventDoc> {
    for (let sequence = (a.announced.sequence ?? 0) + 1; ; sequence++) {
      const id = eventId(a.resourceId, sequence);
      const event: WebhookEventDoc = {
        _id: id,
        workspace_id: a.workspaceId,
        type: a.type,
        key,
        body: JSON.stringify({ id, type: a.type, created_at: now.toISOString(), data: a.view(sequence) }),
        created_at: now,
      };
      try {
        await db.webhookEvents.insertOne(event);
        return event;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const there = await db.webhookEvents.findOne({ _id: id });
      if (there?.key === key) return there;
      // Another writer (a WhatsApp status beside the call's workflow) took this number first: the next one.
    }
  }

  return async (a) => {
    const key = `${a.type}/${a.occurrence}`;
    if (a.announced.events?.includes(key)) return null;
    const endpoints = subscribed(await db.webhookEndpoints.findOne({ _id: a.workspaceId }), a.type);
    if (endpoints.length === 0) return null;
    const now = clock();
    const event = await store(a, key, now);
    const sequence = Number(event._id.slice(event._id.lastIndexOf('_') + 1));
    const docs: WebhookDeliveryDoc[] = endpoints.map((e) => ({
      _id: deliveryId(e.id, event._id),
      workspace_id: a.workspaceId,
      endpoint_id: e.id,
      event_id: event._id,
      event_type: a.type,
      status: 'pending',
      attempts: 0,
      status_code: null,
      error: null,
      last_attempt_at: null,
      next_attempt_at: now,
      delivered_at: null,
      created_at: now,
      updated_at: now,
    }));
    const written = await insertEach(db.webhookDeliveries, docs);
    if (written.includes('error')) throw new Error(`Deliveries of event ${event._id} could not all be stored`);
    // A retried announcement finds its deliveries there (duplicates), which may have moved on: not listed again
    // as pending. One its first run stored and did not list is listed by its first try, which changes its status.
    await deliveries.created(docs.filter((_, i) => written[i] === 'written'));
    await Promise.all(endpoints.map((e) => dispatch(a.workspaceId, e.id, event._id)));
    await a.mark(key, sequence);
    return event._id;
  };
}
