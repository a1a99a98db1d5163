import type { Database } from '../database';
import { isDuplicateKey } from '../duplicate-key';
import { subscribed, type DeliveryState, type WebhookEndpoint, type WebhookEventDoc } from '../records/webhooks';
import { logDeliveries } from './delivery-log';
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
  resourceId: string;
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

/**
 * Announces an event of `type` in a workspace; the event's id, or null when no endpoint wants it. `about`
 * reads the resource as it is now, and only when an endpoint wants the event: a workspace without webhooks
 * pays one read of its endpoints per event, and nothing is stored.
 */
export type Announce = (workspaceId: string, type: WebhookEventType, about: () => Promise<Announcement | null>) => Promise<string | null>;

/** An event's id, from its resource and its place among the resource's events. */
export const eventId = (resourceId: string, sequence: number) => `evt_${resourceId}_${sequence}`;

export function webhookAnnouncer(db: Database, dispatch: DispatchEvent, clock: () => Date = () => new Date()): Announce {
  /** Stores the event under the next free sequence; a retried announcement finds its own event again. */
  async function store(
    workspaceId: string,
    type: WebhookEventType,
    a: Announcement,
    key: string,
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
    for (let sequence = (a.announced.sequence ?? 0) + 1; ; sequence++) {
      const id = eventId(a.resourceId, sequence);
      const event: WebhookEventDoc = {
        _id: id,
        workspace_id: workspaceId,
        type,
        key,
        body: JSON.stringify({ id, type, created_at: now.toISOString(), data: a.view(sequence) }),
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
      if (there?.key === key) return { event: there, made: false };
      // Another writer (a WhatsApp status beside the call's workflow) took this number first: the next one.
    }
  }

  return async (workspaceId, type, about) => {
    let endpoints = subscribed(await db.webhookEndpoints.findOne({ _id: workspaceId }), type);
    if (endpoints.length === 0) return null;
    const a = await about();
    if (!a) return null;
    const key = `${type}/${a.occurrence}`;
    if (a.announced.events?.includes(key)) return null;
    const now = clock();
    const { event, made } = await store(workspaceId, type, a, key, endpoints, now);
    const sequence = Number(event._id.slice(event._id.lastIndexOf('_') + 1));
    // A retried announcement finds its event made, with the endpoints it was made for: those are told again
    // (a delivery already made is not made twice), and it is logged again, harmlessly (the same entry).
    if (!made) endpoints = endpoints.filter((e) => event.deliveries[e.id]);
    await logDeliveries(db, event);
    await Promise.all(endpoints.map((e) => dispatch(workspaceId, e.id, event._id)));
    await a.mark(key, sequence);
    return event._id;
  };
}
