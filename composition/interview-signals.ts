import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { startOptions, whileReachable } from '../infra/temporal';
import type { InterviewDoc } from '../infra/documents/interviews';
import { interviewChangedSignal, interviewStart } from '../workflows/interviews';

/**
 * Signals an interview's workflow that the interview changed (the candidate started or finished, the API
 * accepted a resend), with signalWithStart. `reopen`: a workflow that has closed starts again under the same
 * id, finds its email sent and carries on from where the interview stands; the API's resend of an expired
 * link needs that. The candidate's pages never reopen one (REJECT_DUPLICATE): a link posted to again, by a
 * person or a bot, after its interview ended starts nothing, and its signal to a closed workflow is dropped.
 * Fails with ServiceUnavailableError when Temporal is not there.
 */
export function interviewSignaller(
  client: Client,
  taskQueue: string,
  { reopen = true }: { reopen?: boolean } = {},
): (interview: InterviewDoc) => Promise<void> {
  return async (interview) => {
    const start = interviewStart(interview);
    try {
      await whileReachable(client, () =>
        client.workflow.signalWithStart(start.workflowType, {
          ...startOptions(start, taskQueue),
          ...(reopen ? {} : { workflowIdReusePolicy: 'REJECT_DUPLICATE' as const }),
          signal: interviewChangedSignal,
          signalArgs: [],
        }),
      );
    } catch (err) {
      if (!reopen && err instanceof WorkflowExecutionAlreadyStartedError) return; // closed, and stays closed
      throw err;
    }
  };
}
