import { signingSecrets, type DeliveryState, type WebhookEndpoint } from '../infra/documents/webhooks';
import { postJson } from '../infra/webhooks/outbound';
import { signedHeaders } from '../infra/webhooks/signing';
import { answerMeans, DELIVERY_TIMEOUT_MS, nextDeliveryTime } from '../shared/webhooks/delivery-schedule';
import type { ActivityDeps } from './deps';
import { whileBeating } from './heartbeats';
import { webhookDeliveries } from '../infra/metrics';
import { maskedRefusal } from '../shared/address-masking';

export interface EndpointRef {
  workspaceId: string;
  endpointId: string;
}

export interface TryResult {
  eventId: string;
  /** When to try again; null when the delivery is done (delivered, or failed for good). */
  nextAt: number | null;
}

export interface BatchResult {
  results: TryResult[];
  /** Why nothing more may be sent to the endpoint (deleted, or its receiver answered 410); null while it is open. */
  gone: string | null;
}

/**
 * Webhook deliveries: one try of each due event, signed, with its outcome recorded on the event's delivery to
 * the endpoint (one read and one write by `_id`). A delivery that is no longer pending (a retried activity, a
 * repeated signal) is not sent again; one sent by hand is pending again first (api/webhooks/deliveries.ts).
 */
export function createWebhookActivities({
  stores,
  logger,
  clock,
  webhooks,
}: Pick<ActivityDeps, 'stores' | 'logger' | 'clock' | 'webhooks'>) {
  const { webhooks: store } = stores;
  /** Records how the delivery stands now. */
  const record = (eventId: string, endpointId: string, state: Partial<DeliveryState>) => store.setDelivery(eventId, endpointId, state);

  async function tryOne(endpoint: Readonly<WebhookEndpoint>, eventId: string): Promise<TryResult & { gone: boolean }> {
    const event = await store.event(eventId);
    const delivery = event?.deliveries[endpoint.id];
    if (!delivery || !event) {
      logger.warn({ endpointId: endpoint.id, eventId }, 'webhook event or delivery not found; skipped');
      return { eventId, nextAt: null, gone: false };
    }
    if (delivery.status !== 'pending') return { eventId, nextAt: null, gone: false };
    const now = clock();
    const attempts = delivery.attempts + 1;
    // Each try claimed before it is sent (stores/sends.ts): a batch run again after its worker died finds the
    // tries the dead one began, which the receiver may have, and counts each as a try of unknown outcome, the
    // next on the schedule, instead of sending it again at once.
    if (!(await stores.sends.take({ channel: 'webhook', eventId, endpointId: endpoint.id, attempt: attempts }, now))) {
      const nextAt = nextDeliveryTime(attempts, now.getTime());
      await record(eventId, endpoint.id, {
        status: nextAt === null ? 'failed' : 'pending',
        attempts,
        status_code: null,
        error: TRY_UNANSWERED,
        last_attempt_at: now,
        next_attempt_at: nextAt === null ? null : new Date(nextAt),
        delivered_at: null,
      });
      webhookDeliveries.inc({ result: nextAt === null ? 'failed' : 'retrying' });
      return { eventId, nextAt, gone: false };
    }
    // The receiver checks the signature's time against its own clock: the time this try is sent.
    const sentAt = Math.floor(Date.now() / 1_000);
    const headers = signedHeaders(signingSecrets(endpoint, now), event._id, sentAt, event.body);
    const answer = await postJson(endpoint.url, headers, event.body, {
      timeoutMs: DELIVERY_TIMEOUT_MS,
      allowPrivate: webhooks.allowPrivate,
    });
    const means = answer.status === null ? 'retry' : answerMeans(answer.status);
    const nextAt = means === 'retry' ? nextDeliveryTime(attempts, now.getTime()) : null;
    const status: DeliveryState['status'] = means === 'delivered' ? 'delivered' : nextAt === null ? 'failed' : 'pending';
    const error = answer.error ?? (means === 'delivered' ? null : `the receiver answered ${answer.status}`);
    if (means !== 'delivered')
      logger.info(
        { endpointId: endpoint.id, eventId, status: answer.status, error: maskedRefusal(error), attempts },
        'webhook not delivered',
      );
    await record(eventId, endpoint.id, {
      status,
      attempts,
      status_code: answer.status,
      error,
      last_attempt_at: now,
      next_attempt_at: nextAt === null ? null : new Date(nextAt),
      delivered_at: means === 'delivered' ? now : null,
    });
    // Each try once, after its outcome is stored: a retried activity finds the delivery no longer pending.
    webhookDeliveries.inc({ result: status === 'pending' ? 'retrying' : status });
    return { eventId, nextAt, gone: means === 'gone' };
  }

  /** Marks deliveries that will not be tried (their endpoint is gone) as failed, with why. */
  async function fail(ref: EndpointRef, eventIds: string[], reason: string): Promise<void> {
    await Promise.all(
      eventIds.map(async (eventId) => {
        const event = await store.event(eventId);
        if (event?.deliveries[ref.endpointId]?.status !== 'pending') return;
        await record(eventId, ref.endpointId, { status: 'failed', error: reason, next_attempt_at: null });
      }),
    );
  }

  return {
    async deliverEvents(ref: EndpointRef, eventIds: string[]): Promise<BatchResult> {
      const endpoint = await store.sharedEndpoint(ref.workspaceId, ref.endpointId);
      if (!endpoint || endpoint.status !== 'enabled') {
        const gone = endpoint?.disabled_reason ?? 'The endpoint was deleted';
        await fail(ref, eventIds, gone);
        return { results: [], gone };
      }
      const tries = await whileBeating(() => Promise.all(eventIds.map((id) => tryOne(endpoint, id))));
      if (!tries.some((t) => t.gone)) return { results: tries.map(({ eventId, nextAt }) => ({ eventId, nextAt })), gone: null };
      const gone = `The receiver answered 410 Gone on ${clock().toISOString()}`;
      await fail(
        ref,
        tries.filter((t) => t.nextAt !== null).map((t) => t.eventId),
        gone,
      );
      await store.disableEndpoint(ref.workspaceId, ref.endpointId, gone);
      logger.warn({ endpointId: ref.endpointId }, 'webhook endpoint disabled: its receiver answered 410 Gone');
      return { results: [], gone };
    },

    async abandonDeliveries(ref: EndpointRef, eventIds: string[], reason: string): Promise<void> {
      await fail(ref, eventIds, reason);
    },
  };
}

/** Why a try begun by an execution that died counts with no answer: the receiver may have it. */
const TRY_UNANSWERED =
  'The try was begun by a worker that stopped before its answer; the receiver may have it, and the next try follows the schedule';

/** The delivery workflow's activities, the type it proxies. */
export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
