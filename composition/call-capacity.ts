import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { callWorkflow, capacityChangedSignal } from '../workflows/calls';
import { CallStatusKey, WorkspaceIdKey } from '../workflows/search-attributes';

/** Signals sent at once to the waiting calls. */
const AT_ONCE = 50;

/**
 * A given-back slot wakes the calls that have waited longest, this many: the first woken may be held back by
 * its calling window or its consent, or find the slot taken by a waiter whose own look came first.
 */
const WOKEN_PER_SLOT = 2;

/**
 * The most calls of a workspace that may wait for a given-back slot to wake any: past it, each looks on its own
 * timer (up to 19 s apart). Finding the longest waiters lists them all, as visibility on SQL sorts nothing, so
 * a longer queue would cost a long list at every call's end.
 */
export const WAKE_AT_MOST = 20;

/** How long a given-back slot's wake may take: past it, the waiting calls look on their own timers. */
const WAKE_WITHIN_MS = 2_000;

/**
 * Signals the workspace's calls that wait for capacity that its cap changed, so each looks again now instead of
 * at its next look (up to LONGEST_CAPACITY_WAIT_MS away, 19 s): a raised cap takes effect within a second. They
 * are found through the workflows' search attributes, never by reading calls. Returns how many were signalled;
 * a call that ended meanwhile is not counted.
 */
export async function wakeCallsWaitingForCapacity(client: Client, workspaceId: string): Promise<number> {
  const query = waitingQuery(workspaceId);
  if (!query) return 0;
  let signalled = 0;
  let round: Array<Promise<boolean>> = [];
  const count = async () => {
    signalled += (await Promise.all(round)).filter(Boolean).length;
    round = [];
  };
  for await (const w of client.workflow.list({ query })) {
    round.push(tell(client, w));
    if (round.length === AT_ONCE) await count();
  }
  await count();
  return signalled;
}

/**
 * After one of the workspace's calling slots was given back: wakes the WOKEN_PER_SLOT calls that have waited
 * longest (by their workflows' start), when at most WAKE_AT_MOST wait, so one takes the slot now instead of
 * at its next look. How many were woken.
 */
export async function wakeForGivenBackSlot(client: Client, workspaceId: string): Promise<number> {
  const query = waitingQuery(workspaceId);
  if (!query) return 0;
  // Within a deadline, which also ends the client's own retries: the activity that gave the slot back waits
  // for this, and a retry left pending past a closed connection throws from its timer ("Channel has been shut
  // down", which failed a test file after its stack stopped).
  return client.withDeadline(Date.now() + WAKE_WITHIN_MS, async () => {
    const { count } = await client.workflow.count(query);
    if (count === 0 || count > WAKE_AT_MOST) return 0;
    const waiting: Array<{ workflowId: string; runId: string; startTime: Date }> = [];
    for await (const w of client.workflow.list({ query })) waiting.push(w);
    const longest = waiting.sort((a, b) => a.startTime.getTime() - b.startTime.getTime()).slice(0, WOKEN_PER_SLOT);
    return (await Promise.all(longest.map((w) => tell(client, w)))).filter(Boolean).length;
  });
}

/** Signals one waiting call that capacity changed; false when it has ended meanwhile. */
async function tell(client: Client, w: { workflowId: string; runId: string }): Promise<boolean> {
  try {
    await client.workflow.getHandle(w.workflowId, w.runId).signal(capacityChangedSignal);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/** The visibility query of the workspace's running calls that wait for capacity; null for an id not ours. */
function waitingQuery(workspaceId: string): string | null {
  // Workspace ids are ours (`ws_…`): anything else matches no call, and is never put into a query.
  if (!/^[\w-]+$/.test(workspaceId)) return null;
  return [
    `WorkflowType = '${callWorkflow.name}'`,
    `ExecutionStatus = 'Running'`,
    `${WorkspaceIdKey.name} = '${workspaceId}'`,
    `${CallStatusKey.name} = 'waiting_for_capacity'`,
  ].join(' AND ');
}
