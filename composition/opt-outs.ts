import type { Client } from '@temporalio/client';
import type { Logger } from '../infra/logger';
import { startEach, whileReachable } from '../infra/temporal';
import { workflowStart } from '../shared/workflow-starts';
import { optOutWorkflow, optOutWorkflowId } from '../workflows/suppressions';

/** Sets an opt-out's effects moving: the workflow that cancels the suppressed phones' calls now. */
export type OptedOut = (suppressionIds: string[]) => Promise<void>;

/**
 * Starts the opt-out workflow for new ledger entries (workflows/suppressions.ts), once per first entry id.
 * The entries are in force already: every dial and message reads the ledger. So when Temporal cannot be
 * reached the request still succeeds, and a waiting call is cancelled at its next contact instead of now.
 */
export function optOutStarter(client: Client, taskQueue: string, logger: Logger): OptedOut {
  return async (ids) => {
    if (ids.length === 0) return;
    const start = workflowStart(optOutWorkflow, {
      workflowId: optOutWorkflowId(ids[0]),
      args: [ids],
      searchAttributes: [],
      summary: `Opt-out: stop the calls of ${ids.length} new ledger ${ids.length === 1 ? 'entry' : 'entries'}`,
    });
    try {
      await whileReachable(client, () => startEach(client, taskQueue, [start]));
    } catch (err) {
      logger.warn({ err, suppressionIds: ids }, 'opt-out workflow not started; waiting calls stop at their next contact');
    }
  };
}
