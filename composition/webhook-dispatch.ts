import type { Client } from '@temporalio/client';
import { startOptions, whileReachable } from '../infra/temporal';
import { workflowStart } from '../shared/workflow-starts';
import type { Database } from '../infra/database';
import { webhookAnnouncer, type Announce } from '../infra/webhooks/events';
import { WorkspaceIdKey } from '../workflows/search-attributes';
import { retryDeliverySignal, webhookDeliveryWorkflow, webhookEventSignal, webhookWorkflowId } from '../workflows/webhooks';

/**
 * Tells an endpoint's delivery workflow of an event, starting it when it is not running (it ends when it has
 * been idle a minute). `retry` sends a delivery again now. Fails with ServiceUnavailableError when Temporal
 * is not there: the announcing activity, or the API request, fails and is retried whole.
 */
export function webhookSignaller(client: Client, taskQueue: string) {
  const send = (retry: boolean) => async (workspaceId: string, endpointId: string, eventId: string) => {
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
        signalArgs: [eventId],
      }),
    );
  };
  return { dispatch: send(false), retry: send(true) };
}

/** The announcer of call and interview events, wired to the delivery workflows. */
export function announcer(db: Database, client: Client, taskQueue: string, clock?: () => Date): Announce {
  return webhookAnnouncer(db, webhookSignaller(client, taskQueue).dispatch, clock);
}
