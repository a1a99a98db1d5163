import type { DeliveryStatus, WebhookEventType } from '../../shared/webhooks/schema';

/**
 * Webhooks as stored. Every read of them is by exact `_id` (FerretDB uses no other index): a workspace's
 * endpoints are one document, an event is found by its id, a delivery by its endpoint and event.
 */

export interface WebhookSecret {
  /** `whsec_…`, as shown once to the workspace: the signature is made with it, so it is kept as it is. */
  value: string;
  /** null for the current secret; a rotated one signs until then. */
  expires_at: Date | null;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  secrets: WebhookSecret[];
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  created_at: Date;
}

/** A workspace's endpoints, by id: one document per workspace, `_id` the workspace's id. */
export interface WebhookEndpointsDoc {
  _id: string;
  endpoints: Record<string, WebhookEndpoint>;
}

/** One event's delivery to one endpoint: its tries and how the last one went. */
export interface DeliveryState {
  status: DeliveryStatus;
  attempts: number;
  status_code: number | null;
  error: string | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
}

/**
 * One event, as sent, with its delivery to each endpoint that wanted it: one document, so making an event is
 * one insert and a try is one update. The body is kept as the exact bytes, so every try carries the same body
 * and signature input.
 */
export interface WebhookEventDoc {
  _id: string;
  workspace_id: string;
  type: WebhookEventType;
  /** What happened, so a retried announcement knows it was made: `<type>/<occurrence>`. */
  key: string;
  body: string;
  /** By endpoint id. */
  deliveries: Record<string, DeliveryState>;
  created_at: Date;
}

/** A delivery's id in the API: its endpoint's and its event's. */
export const deliveryId = (endpointId: string, eventId: string) => `${endpointId}.${eventId}`;
export function parseDeliveryId(id: string): { endpointId: string; eventId: string } | null {
  const dot = id.indexOf('.');
  return dot > 0 ? { endpointId: id.slice(0, dot), eventId: id.slice(dot + 1) } : null;
}

/** The update of an endpoint's delivery in its event that sets `state`'s fields and leaves the others. */
export function deliveryUpdate(endpointId: string, state: Partial<DeliveryState>): { $set: Record<string, unknown> } {
  return { $set: Object.fromEntries(Object.entries(state).map(([k, v]) => [`deliveries.${endpointId}.${k}`, v])) };
}

/** The endpoints subscribed to an event type and still enabled. */
export function subscribed(doc: WebhookEndpointsDoc | null, type: WebhookEventType): WebhookEndpoint[] {
  return Object.values(doc?.endpoints ?? {}).filter((e) => e.status === 'enabled' && e.events.includes(type));
}

/** The secrets that sign now: the current one, and a rotated one until it expires. */
export function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  return endpoint.secrets.filter((s) => s.expires_at === null || s.expires_at > now).map((s) => s.value);
}
