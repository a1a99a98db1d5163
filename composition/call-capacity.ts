import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { callWorkflowId } from '../shared/workflow-starts';
import { callWorkflow, capacityChangedSignal } from '../workflows/calls';
import type { Logger } from '../infra/logger';
import { CallStatusKey, WorkspaceIdKey } from '../workflows/search-attributes';

/** Signals sent at once to the waiting calls. */
const AT_ONCE = 50;

/**
 * Signals the workspace's calls that wait for capacity that its cap changed, so each looks again now instead of
 * at its next look (up to LONGEST_CAPACITY_WAIT_MS away, 19 s): a raised cap takes effect within a second. They are found through the
 * workflows' search attributes, never by reading calls. Returns how many were signalled; a call that ended
 * meanwhile is not counted.
 */
export async function wakeCallsWaitingForCapacity(client: Client, workspaceId: string): Promise<number> {
  // Workspace ids are ours (`ws_…`): anything else matches no call, and is never put into a query.
  if (!/^[\w-]+$/.test(workspaceId)) return 0;
  const query = [
    `WorkflowType = '${callWorkflow.name}'`,
    `ExecutionStatus = 'Running'`,
    `${WorkspaceIdKey.name} = '${workspaceId}'`,
    `${CallStatusKey.name} = 'waiting_for_capacity'`,
  ].join(' AND ');
  let signalled = 0;
  let round: Array<Promise<void>> = [];
  const signal = async (workflowId: string, runId: string) => {
    try {
      await client.workflow.getHandle(workflowId, runId).signal(capacityChangedSignal);
      signalled++;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  };
  for await (const w of client.workflow.list({ query })) {
    round.push(signal(w.workflowId, w.runId));
    if (round.length === AT_ONCE) {
      await Promise.all(round);
      round = [];
    }
  }
  await Promise.all(round);
  return signalled;
}

const WAKE_WITHIN_MS = 2_000;

/**
 * Tells one call waiting for capacity that a slot was given back (stores/call-slots.ts), so it looks again
 * now. Never throws: a call that ended is left alone, and a failed signal only means the call looks at its
 * next timer, as it would have.
 */
export function callWaker(client: Client, logger: Logger): (callId: string) => Promise<void> {
  return async (callId) => {
    try {
      // Bounded: the end of an attempt waits for it, and must not wait out a Temporal that does not answer.
      await client.withDeadline(Date.now() + WAKE_WITHIN_MS, () =>
        client.workflow.getHandle(callWorkflowId(callId)).signal(capacityChangedSignal),
      );
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError))
        logger.warn({ callId, err: (err as Error).message }, 'a waiting call was not told of a free slot');
    }
  };
}
