import type { Database } from '../infra/database';
import type { Position } from '../infra/lists/time-index';
import {
  deliveryUpdate,
  type DeliveryState,
  type WebhookEndpoint,
  type WebhookEndpointsDoc,
  type WebhookEventDoc,
} from '../infra/documents/webhooks';
import { pageDeliveries, type DeliveryPage } from './delivery-log';
import { eventId, sequenceOf, type EventRecord } from '../infra/webhooks/events';
import type { DeliveryStatus } from '../shared/webhooks/schema';

/**
 * A workspace's webhook endpoints, one document per workspace holding them by id, so each is read and written
 * by the workspace's `_id` and one endpoint's change is a write of its own path; and the events announced to
 * them (made by infra/webhooks/events.ts), each with its delivery to each endpoint, read and written by `_id`.
 */
export function webhookStore(db: Database) {
  const endpointsDoc = (workspaceId: string) => db.webhookEndpoints.findOne({ _id: workspaceId });
  return {
    async endpoints(workspaceId: string): Promise<WebhookEndpoint[]> {
      return Object.values((await endpointsDoc(workspaceId))?.endpoints ?? {});
    },

    async endpoint(workspaceId: string, id: string): Promise<WebhookEndpoint | null> {
      return (await endpointsDoc(workspaceId))?.endpoints[id] ?? null;
    },

    /** An endpoint, from a read shared with the deliveries that ask while another is in flight: not to be changed. */
    async sharedEndpoint(workspaceId: string, id: string): Promise<Readonly<WebhookEndpoint> | null> {
      return (await db.shared.webhookEndpoints(workspaceId))?.endpoints[id] ?? null;
    },

    async addEndpoint(workspaceId: string, endpoint: WebhookEndpoint): Promise<void> {
      await db.webhookEndpoints.updateOne(
        { _id: workspaceId },
        { $set: { [`endpoints.${endpoint.id}`]: endpoint } as Partial<WebhookEndpointsDoc> },
        { upsert: true },
      );
    },

    async removeEndpoint(workspaceId: string, id: string): Promise<void> {
      await db.webhookEndpoints.updateOne({ _id: workspaceId }, { $unset: { [`endpoints.${id}`]: '' } });
    },

    /**
     * Replaces an endpoint's secrets, only while the endpoint is there (a delete that won the race must not
     * leave secrets without an endpoint); false when it is not. The filter's second field makes FerretDB read
     * the workspaces' webhook documents, one per workspace.
     */
    async setSecrets(workspaceId: string, id: string, secrets: WebhookEndpoint['secrets']): Promise<boolean> {
      const { matchedCount } = await db.webhookEndpoints.updateOne(
        { _id: workspaceId, [`endpoints.${id}.id`]: id },
        { $set: { [`endpoints.${id}.secrets`]: secrets } },
      );
      return matchedCount > 0;
    },

    async disableEndpoint(workspaceId: string, id: string, reason: string): Promise<void> {
      await db.webhookEndpoints.updateOne(
        { _id: workspaceId },
        { $set: { [`endpoints.${id}.status`]: 'disabled', [`endpoints.${id}.disabled_reason`]: reason } },
      );
    },

    event: (id: string): Promise<WebhookEventDoc | null> => db.webhookEvents.findOne({ _id: id }),

    /** Sets `state`'s fields of the event's delivery to the endpoint, and leaves the others. */
    async setDelivery(eventId: string, endpointId: string, state: Partial<DeliveryState>): Promise<void> {
      await db.webhookEvents.updateOne({ _id: eventId }, deliveryUpdate(endpointId, state));
    },

    /** An endpoint's deliveries, newest first, by status if asked (stores/delivery-log.ts). */
    pageDeliveries: (
      workspaceId: string,
      endpointId: string,
      q: { status?: DeliveryStatus; limit: number; after: Position | null },
    ): Promise<DeliveryPage> => pageDeliveries(db, workspaceId, endpointId, q),

    /**
     * Rewrites the stored bodies of a resource's events with the resource as `view` shows it now (an erasure's:
     * the events keep nothing of the person either).
     */
    async rewriteEvents(resource: EventRecord & { _id: string }, view: (sequence: number) => unknown): Promise<void> {
      await Promise.all(
        Array.from({ length: sequenceOf(resource) }, async (_, n) => {
          const id = eventId(resource._id, n + 1);
          const event = await db.webhookEvents.findOne({ _id: id });
          if (!event) return;
          const body = { ...(JSON.parse(event.body) as Record<string, unknown>), data: view(n + 1) };
          await db.webhookEvents.updateOne({ _id: id }, { $set: { body: JSON.stringify(body) } });
        }),
      );
    },
  };
}

export type WebhookStore = ReturnType<typeof webhookStore>;
