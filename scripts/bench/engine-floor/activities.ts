import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';

/** The floor's activities: nothing, and a signal back to the workflow that asked (a provider's report). */
export function floorActivities(client: Client) {
  return {
    async nothing(): Promise<void> {},
    async signalBack(): Promise<void> {
      const { workflowExecution } = Context.current().info;
      await client.workflow.getHandle(workflowExecution!.workflowId).signal('floorReport');
    },
  };
}

export type FloorActivities = ReturnType<typeof floorActivities>;
