import {
  condition,
  defineSignal,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { CallStatusKey, InterviewStatusKey } from '../../../workflows/search-attributes';
import type { FloorActivities } from './activities';

/**
 * The engine's floor (issue: CPU per completed item): workflows of the same shape as a completed call and a
 * sent invitation, with empty bodies, so the benchmark tells what Temporal and the worker cost on this
 * machine, and what our bodies add. Each step is named for the step of workflows/calls.ts or
 * workflows/interviews.ts it stands for; the options are theirs.
 */

const acts = proxyActivities<FloorActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
const local = proxyLocalActivities<FloorActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  localRetryThreshold: '1 second',
});

/** The call's report, which the dial's activity sends back to its own workflow. */
export const floorReportSignal = defineSignal('floorReport');

/** A call that dials at once and completes on its first attempt. */
export async function callFloorWorkflow(): Promise<void> {
  let reported = false;
  setHandler(floorReportSignal, () => void (reported = true));
  await local.nothing(); // takeCallSlot, which also shows the call scheduled
  upsertSearchAttributes([{ key: CallStatusKey, value: 'in_progress' }]);
  await acts.signalBack(); // dial: the provider's report comes back as a signal
  await condition(() => reported);
  upsertSearchAttributes([{ key: CallStatusKey, value: 'completed' }]);
  await local.nothing(); // completeCall
}

/**
 * An invitation until its email is sent: it then waits for its deadlines on a timer, started here, and ends
 * (the real one sleeps; ending lets the benchmark wait for it).
 */
export async function invitationFloorWorkflow(): Promise<void> {
  upsertSearchAttributes([{ key: InterviewStatusKey, value: 'preparing' }]);
  await acts.nothing(); // prepareInterview
  upsertSearchAttributes([{ key: InterviewStatusKey, value: 'emailing' }]);
  await local.nothing(); // deliverInvitation: the email, its announcement and the first reading of the deadlines
  upsertSearchAttributes([{ key: InterviewStatusKey, value: 'invited' }]);
  void sleep('14 days'); // the wait for the reminder or the expiry
}
