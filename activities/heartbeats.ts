import { Context } from '@temporalio/activity';

/**
 * How often a running activity tells Temporal it is alive: well within the heartbeat timeout of the proxies
 * that set one (10 s: workflows/webhooks.ts, workflows/call-activities.ts).
 */
const BEAT_EVERY_MS = 2_000;

/**
 * Runs `work`, heartbeating while it lasts when it runs as an activity: one lost with its worker (a crash, a
 * SIGKILL) is tried again once its heartbeat timeout passes without a beat, not at the end of its whole
 * start-to-close timeout, however long its requests may take while it is alive.
 */
export async function whileBeating<T>(work: () => Promise<T>): Promise<T> {
  let context: Context | undefined;
  try {
    context = Context.current();
  } catch {
    return work(); // called outside an activity: nothing to tell
  }
  const beat = setInterval(() => context.heartbeat(), BEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(beat);
  }
}
