import type { Client } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import type { Config } from '../infra/config';
import { newId } from '../infra/ids';
import { startEach, startWorkflowOnce } from '../infra/temporal';
import { fanOutWorkflow, fanOutWorkflowId } from '../workflows/fan-out';
import type { WorkflowStart } from '../shared/workflow-starts';

/**
 * Starts the per-candidate workflows of one request: one directly; several through one fan-out workflow,
 * so the request waits for a single start instead of one per candidate (measured in README, Benchmarks).
 * Either way, once this returns the workflows will exist; when it throws, none of them was started by it.
 */
export async function startAll(
  deps: { temporal: Client; config: Pick<Config, 'TEMPORAL_TASK_QUEUE'> },
  starts: WorkflowStart[],
  batch: { summary: string; searchAttributes: SearchAttributePair[] },
): Promise<void> {
  const taskQueue = deps.config.TEMPORAL_TASK_QUEUE;
  if (starts.length === 0) return;
  if (starts.length === 1) {
    await startEach(deps.temporal, taskQueue, starts);
    return;
  }
  await startWorkflowOnce(deps.temporal, fanOutWorkflow, {
    workflowId: fanOutWorkflowId(newId('req')),
    taskQueue,
    args: [starts],
    typedSearchAttributes: batch.searchAttributes,
    staticSummary: batch.summary,
  });
}
