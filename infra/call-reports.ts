import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Database } from './database';
import type { Logger } from './logger';
import type { CallReport } from '../activities/providers/voice';
import { callOutcomeSignal, callWorkflowId } from '../workflows/call';

/**
 * The one path by which a provider's report of an attempt reaches a call: the transcript and extracted
 * variables are stored on the call, then the outcome is signalled to its workflow. Provider webhooks and the
 * simulator both use it. A report for a call that is over, or unknown, is logged and dropped.
 */
export function createCallReporter(deps: { db: Database; client: Client; logger: Logger }) {
  return async (report: CallReport): Promise<void> => {
    if (report.outcome === 'completed') {
      await deps.db.calls.updateOne(
        { _id: report.callId, status: { $nin: ['completed', 'failed', 'cancelled'] } },
        { $set: { transcript: report.transcript ?? [], extracted_variables: report.extracted ?? {}, updated_at: new Date() } },
      );
    }
    try {
      await deps.client.workflow
        .getHandle(callWorkflowId(report.callId))
        .signal(callOutcomeSignal, { attempt: report.attempt, outcome: report.outcome });
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      deps.logger.warn({ callId: report.callId, attempt: report.attempt }, 'outcome reported for a call that is not running');
    }
  };
}
