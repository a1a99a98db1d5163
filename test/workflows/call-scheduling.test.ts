import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { callProgressQuery, callWorkflow, cancelCallSignal } from '../../workflows/calls';
import { callWorkflowInput } from '../../workflows/call-start';
import type { RetryPolicy, WorkingHours } from '../../shared/calls/schema';
import { DAYS } from '../../shared/calls/working-hours';
import { workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { callWorkflowBench, DAY } from '../helpers/call-workflow-bench';
import { recordHistory } from '../helpers/histories';

/** When a call is dialled: schedule_at, working hours, the retry policy and the fallback. */
describe('call workflow: schedule, working hours and retries (time-skipping server)', () => {
  const bench = callWorkflowBench();
  const { newCall, run } = bench;

  it('answers the callProgress query while it sleeps, and a cancelCall signal ends it cancelled without a dial', async () => {
    const call = await newCall({ fallback: true });
    const scheduleAt = (await bench.env.currentTimeMs()) + 2 * DAY;
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: bench.env.nativeConnection,
      taskQueue: bench.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities(bench.deps),
    });
    const outcome = await worker.runUntil(async () => {
      const handle = await bench.env.client.workflow.start(callWorkflow, {
        taskQueue: bench.taskQueue,
        workflowId: call.workflow_id,
        args: [{ ...callWorkflowInput(call), scheduleAt }],
      });
      // Time skipping stops while the test talks to the workflow, so it is still asleep here.
      const asleep = await waitFor(
        () => handle.query(callProgressQuery),
        (p) => p.nextAttemptAt === scheduleAt,
        20_000,
      );
      await handle.signal(cancelCallSignal);
      return { asleep, final: await handle.result() };
    });
    expect(outcome.asleep).toEqual({ status: 'scheduled', attempt: 0, nextAttemptAt: scheduleAt });
    expect(outcome.final.status).toBe('cancelled');
    const stored = (await bench.db.calls.findOne({ _id: call._id }))!;
    expect({ status: stored.status, attempts: stored.attempts.length, messages: stored.messages.length }).toEqual({
      status: 'cancelled',
      attempts: 0,
      messages: 0,
    });
    expect(bench.simulator.dials.filter((d) => d.callId === call._id)).toHaveLength(0);
    await recordHistory(bench.env.client, call.workflow_id, 'call-cancelled-while-scheduled');
  });

  it('dials at schedule_at days ahead, as given, after sending the pre-call template once', async () => {
    const call = await newCall({ preCall: true });
    const scheduleAt = (await bench.env.currentTimeMs()) + 3 * DAY + 17 * 60_000;
    const { progress, stored, dials } = await run(call, { scheduleAt, workingHours: { monday: [{ start_minute: 0, end_minute: 1 }] } });
    expect(progress.status).toBe('completed');
    expect(dials).toHaveLength(1);
    expect(Math.abs(dials[0].at.getTime() - scheduleAt)).toBeLessThan(5_000);
    expect(stored.scheduled_for?.getTime()).toBe(scheduleAt);
    expect(stored.messages).toHaveLength(1);
    expect(stored.messages[0]).toMatchObject({ kind: 'pre_call', status: 'sent', template_name: 'reminder', variables: { body_1: 'Ada' } });
    expect(stored.messages[0].sent_at!.getTime()).toBeLessThanOrEqual(dials[0].at.getTime());
    await recordHistory(bench.env.client, call.workflow_id, 'call-scheduled-pre-call-then-completed');
    expect(await bench.db.whatsappLog.countDocuments({ call_id: call._id })).toBe(1);
    expect(stored.extracted_variables).toEqual({ years: 3 });
    expect(await bench.activeCall(call)).toBeNull();
  });

  it('waits for the next shift when called outside working hours (tomorrow)', async () => {
    const call = await newCall();
    const now = await bench.env.currentTimeMs();
    const tomorrow = new Date(now + DAY);
    const hours: WorkingHours = { [DAYS[tomorrow.getUTCDay()]]: [{ start_minute: 540, end_minute: 600 }] };
    const expected = Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate(), 9, 0);
    const { dials, stored } = await run(call, { workingHours: hours });
    expect(stored.scheduled_for?.getTime()).toBe(expected);
    expect(Math.abs(dials[0].at.getTime() - expected)).toBeLessThan(5_000);
  });

  it('waits for a later shift today', async () => {
    const call = await newCall();
    const now = await bench.env.currentTimeMs();
    const dayStart = Math.floor(now / DAY) * DAY;
    const minute = Math.floor((now - dayStart) / 60_000);
    if (minute + 60 > 1440) return; // too close to midnight for a later shift today
    const hours: WorkingHours = { [DAYS[new Date(now).getUTCDay()]]: [{ start_minute: minute + 30, end_minute: minute + 60 }] };
    const { stored } = await run(call, { workingHours: hours });
    expect(stored.scheduled_for?.getTime()).toBe(dayStart + (minute + 30) * 60_000);
  });

  it('waits a week for the only shift when it is over for today', async () => {
    const call = await newCall();
    const now = await bench.env.currentTimeMs();
    const dayStart = Math.floor(now / DAY) * DAY;
    const minute = Math.floor((now - dayStart) / 60_000);
    if (minute === 0) return; // the one minute of the week where no shift can be "over for today"
    const hours: WorkingHours = { [DAYS[new Date(now).getUTCDay()]]: [{ start_minute: 0, end_minute: minute }] };
    const { stored } = await run(call, { workingHours: hours });
    expect(stored.scheduled_for?.getTime()).toBe(dayStart + 7 * DAY);
  });

  it('dials at once when working hours are disabled', async () => {
    const call = await newCall();
    const { dials, startedAt, stored } = await run(call, { workingHours: { enabled: false, monday: [] } });
    expect(dials[0].at.getTime() - startedAt).toBeLessThan(5_000);
    // Shown scheduled by the take of its slot (no step of its own), with the event of it.
    expect(stored.scheduled_for!.getTime() - startedAt).toBeLessThan(5_000);
    expect(stored.events?.[0]).toBe('call.scheduled/1');
    await recordHistory(bench.env.client, call.workflow_id, 'call-completed-first-time');
  });

  it('retries on the policy reasons with delay and specific_datetime intervals, then completes', async () => {
    const call = await newCall({ outcomes: 'missed,declined,completed' });
    const start = await bench.env.currentTimeMs();
    const specific = new Date(start + 2 * DAY).toISOString();
    const policy: RetryPolicy = {
      conditions: ['missed', 'declined'],
      intervals: [
        { type: 'delay', duration: 90, unit: 'minutes' },
        { type: 'specific_datetime', datetime: specific },
      ],
    };
    const { progress, stored, dials } = await run(call, { retryPolicy: policy });
    expect(progress.status).toBe('completed');
    expect(stored.attempts.map((a) => [a.outcome, a.failure_reason])).toEqual([
      ['failed', 'missed'],
      ['failed', 'declined'],
      ['completed', null],
    ]);
    expect(dials[1].at.getTime() - dials[0].at.getTime()).toBeGreaterThanOrEqual(90 * 60_000);
    expect(dials[1].at.getTime() - dials[0].at.getTime()).toBeLessThan(90 * 60_000 + 5_000);
    expect(Math.abs(dials[2].at.getTime() - Date.parse(specific))).toBeLessThan(5_000);
    await recordHistory(bench.env.client, call.workflow_id, 'call-retried-then-completed');
  });

  it.each(['missed', 'declined', 'sent_to_voicemail', 'silenced', 'abruptly_disconnected'])(
    'retries %s until the intervals run out, then sends the fallback once',
    async (reason) => {
      const call = await newCall({ outcomes: reason, fallback: true });
      const { progress, stored } = await run(call, { retryPolicy: { conditions: [reason as never] } });
      expect(progress.status).toBe('failed');
      expect(stored.attempts).toHaveLength(3); // the first attempt and the two default retries
      expect(stored.failure_reason).toBe(reason);
      expect(stored.messages.map((m) => m.kind)).toEqual(['fallback']);
      expect(await bench.db.whatsappLog.countDocuments({ call_id: call._id, kind: 'fallback' })).toBe(1);
    },
  );

  it('sends the fallback without retrying a reason outside the conditions', async () => {
    const call = await newCall({ outcomes: 'silenced', fallback: true });
    const { stored, dials } = await run(call, { retryPolicy: { conditions: ['missed'] } });
    expect(dials).toHaveLength(1);
    expect(stored).toMatchObject({ status: 'failed', failure_reason: 'silenced' });
    expect(stored.messages.map((m) => m.kind)).toEqual(['fallback']);
    await recordHistory(bench.env.client, call.workflow_id, 'call-failed-with-fallback');
  });

  it('makes one attempt without a retry policy', async () => {
    const call = await newCall({ outcomes: 'missed' });
    const { stored, dials } = await run(call);
    expect(dials).toHaveLength(1);
    expect(stored).toMatchObject({ status: 'failed', failure_reason: 'missed', messages: [] });
  });
});
