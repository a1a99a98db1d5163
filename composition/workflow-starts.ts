import type { Client } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { newId } from '../infra/ids';
import { startEach, startWorkflowOnce, whileReachable } from '../infra/temporal';
import { fanOutWorkflow, fanOutWorkflowId } from '../workflows/fan-out';
import type { WorkflowStart } from '../shared/workflow-starts';

/** What operators see of a request's fan-out workflow. */
export type Batch = { summary: string; searchAttributes: SearchAttributePair[] };

/**
 * Starts the per-candidate workflows of one request: one directly; several through one fan-out workflow,
 * so the request waits for a single start instead of one per candidate (measured in docs/benchmarks.md).
 * Either way, once this returns the workflows will exist. When it throws, the start may still reach Temporal
 * later; the caller takes back the records it wrote, so such a workflow fails at its first step (its call or
 * interview does not exist) before any side effect, and a retry replaces it (startWorkflowOnce).
 */
export async function startAll(client: Client, taskQueue: string, starts: WorkflowStart[], batch: Batch): Promise<void> {
  if (starts.length === 0) return;
  // A start Temporal cannot take because it is unreachable fails the request with a 503 within about 3 s.
  await whileReachable(client, async () => {
    if (starts.length === 1) {
      await startEach(client, taskQueue, starts);
      return;
    }
    await startWorkflowOnce(client, fanOutWorkflow, {
      workflowId: fanOutWorkflowId(newId('req')),
      taskQueue,
      args: [starts],
      typedSearchAttributes: batch.searchAttributes,
      staticSummary: batch.summary,
    });
  });
}
