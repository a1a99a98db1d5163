import type { WebhookEventType } from '../../shared/webhooks/schema';

/**
 * Announcing what happened to a call or an interview: the event is stored once, a delivery is listed for each
 * endpoint that wants it, and each endpoint's delivery workflow is signalled. The write that makes a change also
 * records its event's key on the resource (`recordEvent`), and the change is announced right after, inside the
 * same activity, from the document that write returned. A crash between the two makes the activity run again:
 * the key is already there (it is added once), so the event gets the same sequence, and storing it again finds
 * it made. So no change goes unannounced, none is announced twice, and announcing costs no read of its own.
 */

/** What the resource's document keeps of its events: each one's key, in order; its place is its sequence. */
export interface EventRecord {
  events?: string[];
  /** The last event's sequence, as documents stored it before `events` gave it (a view shows the greater). */
  sequence?: number;
}

/** An event's key: its type, and its occurrence (an attempt's number, a deadline…), which tells it from another of its type. */
export const eventKey = (type: WebhookEventType, occurrence: string | number) => `${type}/${occurrence}`;

/**
 * The part of a change's update that records its events on the resource, in order, each once however often it
 * is written.
 */
export const recordEvent = (...keys: string[]) => ({ $addToSet: { events: keys.length === 1 ? keys[0] : { $each: keys } } });

/**
 * The resource with `key` among its events: as its change's write left it, or, for a change written before
 * events were recorded with their change, with the key recorded now by `record` (null when it is gone).
 */
export async function withEvent<T extends EventRecord>(
  resource: T,
  key: string,
  record: (update: ReturnType<typeof recordEvent>) => Promise<T | null>,
): Promise<T | null> {
  return resource.events?.includes(key) ? resource : record(recordEvent(key));
}

/** The resource's sequence: the number of events recorded on it. */
export const sequenceOf = (r: EventRecord) => Math.max(r.sequence ?? 0, r.events?.length ?? 0);

export interface Announcement {
  resourceId: string;
  key: string;
  /** The resource's document as the write that recorded `key` left it. */
  announced: EventRecord;
  /** The resource as its GET returns it, with this event's sequence, as an event of `type` shows it. */
  view(sequence: number, type: string): unknown;
}

/** Signals an endpoint's delivery workflow of a new event (composition/webhook-signals.ts). */
export type SignalDelivery = (workspaceId: string, endpointId: string, eventId: string) => Promise<void>;

/** An event to announce: its type, and `about`, the resource, asked for only when an endpoint wants the event. */
export interface EventToAnnounce {
  type: WebhookEventType;
  about: () => Promise<Announcement | null>;
}

/**
 * Announces events of a workspace that one write made, in order; each one's id, or null when no endpoint
 * wants it. One read of the endpoints serves them all: it begins after that write, so it finds every endpoint
 * registered before any of them happened. A workspace without webhooks pays that read, and nothing is stored.
 */
export type Announce = (workspaceId: string, ...events: EventToAnnounce[]) => Promise<Array<string | null>>;

/** An event's id, from its resource and its place among the resource's events. */
export const eventId = (resourceId: string, sequence: number) => `evt_${resourceId}_${sequence}`;
