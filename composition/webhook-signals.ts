import type { Client } from '@temporalio/client';
import { startOptions, whileReachable } from '../infra/temporal';
import { pacedBatches } from '../infra/paced-batches';
import { workflowStart } from '../shared/workflow-starts';
import type { Database } from '../infra/database';
import type { Announce, SignalDelivery } from '../infra/webhooks/events';
import { webhookAnnouncer } from '../stores/webhook-announcer';
import { WorkspaceIdKey } from '../workflows/search-attributes';
import { retryDeliverySignal, webhookDeliveryWorkflow, webhookEventSignal, webhookWorkflowId } from '../workflows/webhooks';

/**
 * A process signals one endpoint's workflow at most this often. Each signal costs the server a history event
 * and, mostly, a workflow task. 50 completed calls announce 150 events: one signal each made 98 signals and 51
 * workflow tasks; paced at 100 ms, 31 to 34 signals and 25 to 31 tasks, and the stack's CPU per call with an
 * endpoint fell from 1.27× to 1.12-1.25× (median 1.20×) of the same calls without (docs/webhooks.md). The
 * price: in a burst, an announcement waits up to this long for its signal.
 */
const SIGNAL_GAP_MS = 100;

/**
 * Signals an endpoint's delivery workflow of events, starting it when it is not running (it ends when it has
 * been idle a minute). The events of one endpoint go in one signal, paced (infra/paced-batches.ts): a lone
 * event at once, a burst in a few signals. Each announcement returns once its own signal is in. `retry` sends
 * a delivery again now. Fails with ServiceUnavailableError when Temporal is not there: the announcing
 * activity, or the API request, fails and is retried whole.
 */
export function webhookSignaller(client: Client, taskQueue: string) {
  const signal = (retry: boolean) => async (workspaceId: string, endpointId: string, eventIds: string | string[]) => {
    const start = workflowStart(webhookDeliveryWorkflow, {
      workflowId: webhookWorkflowId(endpointId),
      args: [{ workspaceId, endpointId }],
      searchAttributes: [{ key: WorkspaceIdKey, value: workspaceId }],
      summary: `Webhook deliveries to endpoint ${endpointId}`,
    });
    await whileReachable(client, () =>
      client.workflow.signalWithStart(start.workflowType, {
        ...startOptions(start, taskQueue),
        signal: retry ? retryDeliverySignal : webhookEventSignal,
        signalArgs: [eventIds],
      }),
    );
  };
  const send = signal(false);
  const batches = pacedBatches<{ workspaceId: string; eventId: string }>(SIGNAL_GAP_MS, (endpointId, events) =>
    send(
      events[0].workspaceId,
      endpointId,
      events.map((e) => e.eventId),
    ),
  );
  const deliver: SignalDelivery = (workspaceId, endpointId, eventId) => batches(endpointId, { workspaceId, eventId });
  return { deliver, retry: signal(true) };
}

/** The announcer of call and interview events, wired to the delivery workflows. */
export function announcer(db: Database, client: Client, taskQueue: string, clock?: () => Date): Announce {
  return webhookAnnouncer(db, webhookSignaller(client, taskQueue).deliver, clock);
}
