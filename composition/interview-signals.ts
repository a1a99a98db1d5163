import type { Client } from '@temporalio/client';
import { startOptions, whileReachable } from '../infra/temporal';
import type { InterviewDoc } from '../infra/records/interviews';
import { interviewChangedSignal, interviewStart } from '../workflows/interviews';

/**
 * Tells an interview's workflow that the interview changed (the candidate started or finished, the API
 * accepted a resend). With signalWithStart: a workflow that has closed (an expired link, or an invitation
 * sent before its workflow followed the interview) starts again under the same id, finds its email sent and
 * carries on from where the interview stands. Fails with ServiceUnavailableError when Temporal is not there.
 */
export function interviewNotifier(client: Client, taskQueue: string): (interview: InterviewDoc) => Promise<void> {
  return async (interview) => {
    const start = interviewStart(interview);
    await whileReachable(client, () =>
      client.workflow.signalWithStart(start.workflowType, {
        ...startOptions(start, taskQueue),
        signal: interviewChangedSignal,
        signalArgs: [],
      }),
    );
  };
}
