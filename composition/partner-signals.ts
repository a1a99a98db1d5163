import type { Client } from '@temporalio/client';
import { startOptions, whileReachable } from '../infra/temporal';
import { workflowStart } from '../shared/workflow-starts';
import { partnerChangedSignal, partnerPushWorkflow, partnerPushWorkflowId } from '../workflows/partner-pushes';

/**
 * Tells an ATS order's report workflow that its interview or call changed (workflows/partner-pushes.ts), starting
 * it when it is not running: the change may have made a result the ATS has not heard of. A run that ended
 * (its last report made) starts again and finds nothing new to report. Fails with ServiceUnavailableError when
 * Temporal is not there: the change's step, or the request, fails and is retried whole, as for its webhooks.
 */
export function partnerSignaller(client: Client, taskQueue: string) {
  return async (assessmentId: string): Promise<void> => {
    const start = workflowStart(partnerPushWorkflow, {
      workflowId: partnerPushWorkflowId(assessmentId),
      args: [assessmentId],
      searchAttributes: [],
      summary: `Results of ATS order ${assessmentId}, reported to its ATS`,
    });
    await whileReachable(client, () =>
      client.workflow.signalWithStart(start.workflowType, {
        ...startOptions(start, taskQueue),
        signal: partnerChangedSignal,
        signalArgs: [],
      }),
    );
  };
}
