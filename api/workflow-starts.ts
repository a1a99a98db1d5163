import type { Client } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import { asUnavailable } from '../infra/unavailable';
import { newId } from '../infra/ids';
import { startEach, startWorkflowOnce, whileReachable } from '../infra/temporal';
import { fanOutWorkflow, fanOutWorkflowId } from '../workflows/fan-out';
import type { WorkflowStart } from '../shared/workflow-starts';

type StartDeps = { temporal: Client; config: Pick<Config, 'TEMPORAL_TASK_QUEUE'> };
/** What operators see of a request's fan-out workflow. */
type Batch = { summary: string; searchAttributes: SearchAttributePair[] };

/**
 * Starts the per-candidate workflows of one request: one directly; several through one fan-out workflow,
 * so the request waits for a single start instead of one per candidate (measured in docs/benchmarks.md).
 * Either way, once this returns the workflows will exist. When it throws, the start may still reach Temporal
 * later; the caller takes back the records it wrote, so such a workflow fails at its first step (its call or
 * interview does not exist) before any side effect, and a retry replaces it (startWorkflowOnce).
 */
export async function startAll(deps: StartDeps, starts: WorkflowStart[], batch: Batch): Promise<void> {
  const taskQueue = deps.config.TEMPORAL_TASK_QUEUE;
  if (starts.length === 0) return;
  // A start Temporal cannot take because it is unreachable fails the request with a 503 within about 3 s.
  await whileReachable(deps.temporal, async () => {
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
  });
}

/**
 * startAll, or the way back: when the start fails, `takeBack` undoes what the request wrote for these
 * workflows (their items, created with their list entries by their store), so that its retry starts afresh. An outage of Temporal or of the database then fails the whole
 * request with a 503 to retry; any other failure fails the entries, and `false` says so. The cause goes to
 * the log only.
 */
export async function startOrTakeBack(
  deps: StartDeps & { logger: Logger },
  starts: WorkflowStart[],
  batch: Batch,
  takeBack: () => Promise<unknown>,
): Promise<boolean> {
  try {
    await startAll(deps, starts, batch);
    return true;
  } catch (err) {
    deps.logger.error({ err, request: batch.summary, workflows: starts.length }, 'workflows could not be started');
    await takeBack();
    const down = asUnavailable(err);
    if (down) throw down;
    return false;
  }
}
