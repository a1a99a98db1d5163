import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Logger } from '../infra/logger';
import type { ErasureStops } from '../stores/erasure';
import { callWorkflowId, cancelCallSignal } from '../workflows/calls';

/**
 * What an erasure asks of the workflows: a waiting call is cancelled through its own workflow (`opted_out`, as
 * an opt-out cancels it), so its status moves as every status does; an interview's workflow is ended, so
 * nothing more is sent to, or written about, a person who is no longer there. A workflow already closed has
 * nothing left to stop.
 */
export function erasureStops(client: Client, logger: Logger): ErasureStops {
  const closed = (err: unknown) => err instanceof WorkflowNotFoundError;
  return {
    async cancelCall(call) {
      await client.workflow
        .getHandle(callWorkflowId(call._id))
        .signal(cancelCallSignal, 'opted_out')
        .catch((err: unknown) => {
          if (!closed(err)) throw err;
        });
    },
    async endInterview(interview) {
      await client.workflow
        .getHandle(interview.workflow_id)
        .terminate('The candidate was erased')
        .catch((err: unknown) => {
          if (!closed(err)) throw err;
          logger.debug({ interviewId: interview._id }, 'interview workflow closed already');
        });
    },
  };
}
