import { condition, continueAsNew, defineQuery, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { EndpointRef, WebhookActivities } from '../activities/webhooks';
import { RUN_LIMIT_MS } from '../shared/workflow-runs';

/**
 * One workflow per webhook endpoint delivers its events: each new event is signalled to it (with
 * signalWithStart), and it sends what is due in batches, each try of each event on the schedule of
 * shared/webhooks/delivery-schedule.ts, which the delivery activity applies and records. So retries survive
 * restarts, a slow or dead receiver delays only its own endpoint, and a call never waits for a receiver.
 */

export interface WebhookDeliveryInput extends EndpointRef {
  /** Events still to send and when each is due (epoch ms), carried over by continue-as-new. */
  pending?: Record<string, number>;
}

/** New events for the endpoint: one, or several announced together (histories before those carry one). */
export const webhookEventSignal = defineSignal<[string | string[]]>('webhookEvent');
/** Send this event again now (POST …/deliveries/:id/retry). */
export const retryDeliverySignal = defineSignal<[string]>('retryDelivery');
/** The events waiting and when each is due, for operators. */
export const pendingDeliveriesQuery = defineQuery<Record<string, number>>('pendingDeliveries');

export function webhookWorkflowId(endpointId: string): string {
  return `webhooks-${endpointId}`;
}

/** Events sent by one activity, in parallel: each try is bounded by the receiver's 10 s. */
const BATCH = 50;
/** A workflow with nothing to send ends after this long; the next event starts it again. */
const IDLE_MS = 60_000;
/** A batch whose activity failed through its retries (the database was down) is tried again after this. */
const BATCH_RETRY_MS = 30_000;
const HISTORY_LIMIT = 2_000;
/**
 * A run that has lived this long continues as new at its next turn (RUN_LIMIT_MS, less a day: a turn waits 12 h
 * at most, for the schedule's longest gap), with what is still to send, however little its history holds.
 */
const RUN_MS = RUN_LIMIT_MS - 86_400_000;

/**
 * A batch heartbeats while it runs (activities/webhooks.ts): one lost with its worker (a crash, a SIGKILL) is
 * tried again once 10 s pass without a beat, where its start-to-close alone held the events for a minute.
 */
const acts = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<void> {
  const ref: EndpointRef = { workspaceId: input.workspaceId, endpointId: input.endpointId };
  const pending = new Map<string, number>(Object.entries(input.pending ?? {}));
  setHandler(webhookEventSignal, (eventIds) => {
    for (const id of typeof eventIds === 'string' ? [eventIds] : eventIds) if (!pending.has(id)) pending.set(id, Date.now());
  });
  setHandler(retryDeliverySignal, (eventId) => void pending.set(eventId, Date.now()));
  setHandler(pendingDeliveriesQuery, () => Object.fromEntries(pending));
  const earliest = () => Math.min(...pending.values());
  const deadline = workflowInfo().runStartTime.getTime() + RUN_MS;

  for (;;) {
    if (pending.size === 0 && !(await condition(() => pending.size > 0, IDLE_MS))) return;
    const next = earliest();
    // Wait for the next due event, or for a signal that brings an earlier one.
    if (next > Date.now()) {
      await condition(() => earliest() < next, next - Date.now());
      continue;
    }
    const now = Date.now();
    const due = [...pending]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1])
      .slice(0, BATCH)
      .map(([id]) => id);
    for (const id of due) pending.delete(id);
    let sent: Awaited<ReturnType<WebhookActivities['deliverEvents']>>;
    try {
      sent = await acts.deliverEvents(ref, due);
    } catch {
      for (const id of due) if (!pending.has(id)) pending.set(id, Date.now() + BATCH_RETRY_MS);
      continue;
    }
    if (sent.gone) {
      // Deleted, or disabled by a 410: what is left is marked failed, and nothing more is sent.
      await acts.abandonDeliveries(ref, [...pending.keys()], sent.gone);
      return;
    }
    for (const r of sent.results) {
      // A retry asked for during the batch (already back in `pending`) stays as asked.
      if (r.nextAt !== null && !pending.has(r.eventId)) pending.set(r.eventId, r.nextAt);
    }
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > HISTORY_LIMIT || Date.now() >= deadline) {
      await continueAsNew<typeof webhookDeliveryWorkflow>({ ...ref, pending: Object.fromEntries(pending) });
    }
  }
}
