import { ActivityFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { CallActivities } from '../activities/calls';
import type { MessageKind } from '../shared/calls/schema';

/** How the call workflow (calls.ts) reaches its activities: three proxies, each with its own clock and retries. */

const RETRY = { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 } as const;
/** The provider's side of a call: lost-report lookups and templates. */
export const acts = proxyActivities<CallActivities>({ startToCloseTimeout: '1 minute', retry: RETRY });
/**
 * The dial, on a shorter clock: a dial cut off by a dying worker is taken up again after this long, and the
 * provider's own request timeout (VAPI_TIMEOUT_MS, at most 25 s) fits inside it.
 */
export const dialer = proxyActivities<CallActivities>({ startToCloseTimeout: '30 seconds', retry: RETRY });
/**
 * The call's own records (a few `_id` writes each): run inside the workflow task as local activities, which
 * spares the server an activity task, its dispatch and three history events apiece. Retries that wait longer
 * than a second do so on workflow timers, which time-skipping tests skip.
 */
export const local = proxyLocalActivities<CallActivities>({
  startToCloseTimeout: '30 seconds',
  retry: RETRY,
  localRetryThreshold: '1 second',
});

/**
 * The templates, beating while WhatsApp is asked (activities/call-messages.ts): a send lost with its worker is
 * taken up again, and found begun (never sent twice), 10 s after its last beat instead of the whole minute.
 */
const messenger = proxyActivities<CallActivities>({ startToCloseTimeout: '1 minute', heartbeatTimeout: '10 seconds', retry: RETRY });

/** A template that still cannot be sent after the activity's retries is recorded as failed; the call goes on. */
export async function sendTemplate(callId: string, kind: MessageKind): Promise<void> {
  try {
    await messenger.sendWhatsApp(callId, kind);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    await local.recordMessageFailure(callId, kind, err.cause?.message ?? err.message);
  }
}

/** The activity's result, or `fallback` once it has failed through all its retries. */
export async function orOnFailure<T, F>(result: Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await result;
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    return fallback;
  }
}
