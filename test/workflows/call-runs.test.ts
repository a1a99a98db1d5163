import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { callProgressQuery, callWorkflow, cancelCallSignal } from '../../workflows/calls';
import { callWorkflowInput } from '../../workflows/call-start';
import type { CallWorkflowInput } from '../../workflows/call-contract';
import { RUN_LIMIT_MS } from '../../shared/workflow-runs';
import { CallStatusKey } from '../../workflows/search-attributes';
import { workflowBundle, WORKFLOWS_IN_THREAD, uniqueName } from '../helpers/stack';
import { callWorkflowBench, DAY, HOUR, progressUntil } from '../helpers/call-workflow-bench';
import { recordHistory } from '../helpers/histories';
import { runsOf, type WorkflowRun } from '../helpers/workflow-runs';
import { workspaceDoc } from '../helpers/interview-doc';

/** Within the time a workflow task, its local activities and the server's skipping take. */
const NEAR = 5_000;
const NO_HOURS = { enabled: false, monday: [] } as CallWorkflowInput['workingHours'];

/**
 * A call's workflow lives in runs of at most a week (docs/calls.md, "Runs"): a wait that would take a run past
 * its deadline continues as new there, and the next run goes on in that wait, so the code of a release never
 * runs a call more than a week after the next release is deployed. On the time-skipping server.
 */
describe('call workflow: runs of at most a week (time-skipping server)', () => {
  const bench = callWorkflowBench();
  const { newCall } = bench;
  /** A test's workflows left waiting on long timers would stall the server's time skipping for the next. */
  const begun: string[] = [];
  afterEach(async () => {
    for (const id of begun.splice(0))
      await bench.env.client.workflow
        .getHandle(id)
        .terminate('the test is over')
        .catch(() => undefined);
  });

  async function started(call: Awaited<ReturnType<typeof newCall>>, input: Partial<CallWorkflowInput>) {
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: bench.env.nativeConnection,
      taskQueue: bench.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities(bench.deps),
    });
    const startedAt = await bench.env.currentTimeMs();
    begun.push(call.workflow_id);
    const handle = await bench.env.client.workflow.start(callWorkflow, {
      taskQueue: bench.taskQueue,
      workflowId: call.workflow_id,
      args: [{ ...callWorkflowInput(call, 30 * 60_000), ...input }],
      searchAttributes: { [CallStatusKey.name]: ['scheduled'] },
    });
    return { worker, handle, startedAt };
  }

  /** Runs the call to its end; its runs, its stored document and its dials. */
  async function runToEnd(call: Awaited<ReturnType<typeof newCall>>, input: Partial<CallWorkflowInput>) {
    const { worker, handle, startedAt } = await started(call, input);
    const progress = await worker.runUntil(handle.result());
    const runs = await runsOf(bench.env.client, call.workflow_id, handle.firstExecutionRunId);
    const stored = (await bench.db.calls.findOne({ _id: call._id }))!;
    return { progress, runs, stored, startedAt, dials: bench.simulator.dials.filter((d) => d.callId === call._id) };
  }

  const expectShortRuns = (runs: WorkflowRun[]) => {
    for (const run of runs) expect(run.ended - run.started).toBeLessThanOrEqual(RUN_LIMIT_MS);
    expect(runs.slice(0, -1).every((r) => r.continued)).toBe(true);
  };

  it('waits 20 days for schedule_at in runs of at most a week, and dials once at its time', async () => {
    const call = await newCall({ preCall: true });
    const scheduleAt = (await bench.env.currentTimeMs()) + 20 * DAY;
    const { progress, runs, stored, dials } = await runToEnd(call, { scheduleAt, workingHours: NO_HOURS });
    expect(progress.status).toBe('completed');
    expect(runs.length).toBe(4);
    expectShortRuns(runs);
    // Each later run goes on in the wait for the first dial, with where the call stood.
    expect(runs[1].input.resume).toMatchObject({ stage: 'first_dial', until: scheduleAt, used: 0, progress: { status: 'scheduled' } });
    expect(dials).toHaveLength(1);
    expect(Math.abs(dials[0].at.getTime() - scheduleAt)).toBeLessThan(NEAR);
    // The pre-call message and the call's scheduling happened once, across the runs.
    expect(stored.messages).toEqual([expect.objectContaining({ kind: 'pre_call', status: 'sent' })]);
    expect(stored.events?.filter((e) => e.startsWith('call.scheduled/'))).toEqual(['call.scheduled/1']);
    await recordHistory(bench.env.client, call.workflow_id, 'call-run-continued-before-first-dial', runs[0].runId);
    await recordHistory(bench.env.client, call.workflow_id, 'call-run-resumed-first-dial-then-completed');
  });

  it('takes a cancel in the run under way', async () => {
    const call = await newCall();
    const scheduleAt = (await bench.env.currentTimeMs()) + 20 * DAY;
    const { worker, handle } = await started(call, { scheduleAt, workingHours: NO_HOURS });
    const final = await worker.runUntil(async () => {
      await bench.env.sleep(8 * DAY);
      // The second run waits; a handle by the workflow's id reaches it.
      const current = bench.env.client.workflow.getHandle(call.workflow_id);
      const described = await current.describe();
      expect(described.runId).not.toBe(handle.firstExecutionRunId);
      expect(await progressUntil(current, (p) => p.nextAttemptAt === scheduleAt)).toMatchObject({ status: 'scheduled' });
      await current.signal(cancelCallSignal);
      return current.result();
    });
    expect(final.status).toBe('cancelled');
    expect(bench.simulator.dials.filter((d) => d.callId === call._id)).toHaveLength(0);
    expect((await bench.db.calls.findOne({ _id: call._id }))!.status).toBe('cancelled');
  });

  it('retries ten days after a missed attempt in a later run, then fails with its reason and one fallback', async () => {
    const call = await newCall({ outcomes: 'missed,missed', fallback: true });
    const start = await bench.env.currentTimeMs();
    const retryAt = new Date(start + 10 * DAY).toISOString();
    const { progress, runs, stored, dials } = await runToEnd(call, {
      workingHours: NO_HOURS,
      retryPolicy: { conditions: ['missed'], intervals: [{ type: 'specific_datetime', datetime: retryAt }] },
    });
    expect(progress.status).toBe('failed');
    expectShortRuns(runs);
    expect(runs[1].input.resume).toMatchObject({ stage: 'next_dial', used: 1, dials: 1, lastReason: 'missed' });
    expect(dials.map((d) => d.attempt)).toEqual([1, 2]);
    expect(Math.abs(dials[1].at.getTime() - Date.parse(retryAt))).toBeLessThan(NEAR);
    expect(stored).toMatchObject({ status: 'failed', failure_reason: 'missed' });
    expect(stored.attempts.map((a) => a.outcome)).toEqual(['failed', 'failed']);
    expect(stored.messages).toEqual([expect.objectContaining({ kind: 'fallback', status: 'sent' })]);
    await recordHistory(bench.env.client, call.workflow_id, 'call-run-continued-before-retry', runs[0].runId);
    await recordHistory(bench.env.client, call.workflow_id, 'call-run-resumed-retry-then-failed');
  });

  it('waits for the written answers past the run’s deadline in the next run, then fails', async () => {
    const call = await newCall({ outcomes: 'missed', fallback: true });
    const scheduleAt = (await bench.env.currentTimeMs()) + 5 * DAY;
    const { progress, runs, stored } = await runToEnd(call, { scheduleAt, workingHours: NO_HOURS, formFallback: 'when_exhausted' });
    expect(progress.status).toBe('failed');
    expectShortRuns(runs);
    expect(runs.at(-1)!.input.resume).toMatchObject({ stage: 'form', lastReason: 'missed', link: { formOffered: true } });
    // The form's offer was the fallback message, sent once; the call failed when the form's 72 hours were over.
    expect(stored.messages).toEqual([expect.objectContaining({ kind: 'fallback', status: 'sent' })]);
    expect(stored.form_until!.getTime() - scheduleAt).toBeGreaterThanOrEqual(72 * HOUR);
    expect(runs.at(-1)!.ended).toBeGreaterThanOrEqual(stored.form_until!.getTime());
    await recordHistory(bench.env.client, call.workflow_id, 'call-run-continued-waiting-for-form', runs.at(-2)!.runId);
    await recordHistory(bench.env.client, call.workflow_id, 'call-run-resumed-form-then-failed');
  });

  it('sends a fallback the calling window holds past the run’s deadline from the next run, once the window opens', async () => {
    // A window of 70 minutes a day in UTC, from an hour before the dial: the attempt's fallback, due after it
    // closes, waits for the next day's opening, past the run's deadline.
    // (A window is of one day: one that would cross midnight UTC starts three hours later.)
    let dialAt = (await bench.env.currentTimeMs()) + 6 * DAY + 2 * HOUR;
    if ((dialAt + HOUR) % DAY < 2 * HOUR) dialAt += 3 * HOUR;
    const opens = new Date(dialAt - HOUR);
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const workspaceId = uniqueName('ws');
    await bench.db.workspaces.insertOne({
      ...workspaceDoc(workspaceId),
      settings: { calling_window: { start: hhmm(opens), end: hhmm(new Date(dialAt + 10 * 60_000)) } },
    });
    const call = await newCall({ workspaceId, timezones: ['UTC'], fallback: true });
    // A provider that never reports: the attempt ends as no_outcome after its 45 minutes, outside the window.
    const silent = { name: 'silent', dial: async () => ({ accepted: true as const, providerCallId: `quiet-${call._id}` }) };
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: bench.env.nativeConnection,
      taskQueue: bench.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ ...bench.deps, voice: silent }),
    });
    begun.push(call.workflow_id);
    const handle = await bench.env.client.workflow.start(callWorkflow, {
      taskQueue: bench.taskQueue,
      workflowId: call.workflow_id,
      args: [{ ...callWorkflowInput(call, 15 * 60_000), scheduleAt: dialAt, workingHours: NO_HOURS }],
    });
    await worker.runUntil(async () => {
      // Failed at the attempt's end; the run waits for the window, then hands over to the next.
      await bench.env.sleep(8 * DAY);
      await progressUntil(bench.env.client.workflow.getHandle(call.workflow_id), (p) => p.status === 'failed');
      await bench.env.client.workflow.getHandle(call.workflow_id).result();
    });
    const runs = await runsOf(bench.env.client, call.workflow_id, handle.firstExecutionRunId);
    expectShortRuns(runs);
    expect(runs.at(-1)!.input.resume).toMatchObject({ stage: 'fallback', progress: { status: 'failed' } });
    const stored = (await bench.db.calls.findOne({ _id: call._id }))!;
    expect(stored).toMatchObject({ status: 'failed', failure_reason: 'no_outcome' });
    expect(stored.messages).toEqual([expect.objectContaining({ kind: 'fallback', status: 'sent' })]);
    // Sent at the next day's opening (the window's start is to the minute).
    const nextOpening = Math.floor(opens.getTime() / 60_000) * 60_000 + DAY;
    expect(Math.abs(stored.messages[0].sent_at!.getTime() - nextOpening)).toBeLessThan(NEAR);
    await recordHistory(bench.env.client, call.workflow_id, 'call-run-continued-holding-fallback', runs.at(-2)!.runId);
    await recordHistory(bench.env.client, call.workflow_id, 'call-run-resumed-fallback-sent');
  });

  it('answers its progress query in each run', async () => {
    const call = await newCall();
    const scheduleAt = (await bench.env.currentTimeMs()) + 9 * DAY;
    const { worker } = await started(call, { scheduleAt, workingHours: NO_HOURS });
    const progress = await worker.runUntil(async () => {
      await bench.env.sleep(7 * DAY);
      return bench.env.client.workflow.getHandle(call.workflow_id).query(callProgressQuery);
    });
    expect(progress).toEqual({ status: 'scheduled', attempt: 0, nextAttemptAt: scheduleAt });
  });
});
