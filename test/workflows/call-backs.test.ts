import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { callBackUpdate, callBackWithdrawnSignal, callWorkflow, type CallWorkflowInput } from '../../workflows/calls';
import { callWorkflowInput } from '../../workflows/call-start';
import type { RetryPolicy } from '../../shared/calls/schema';
import { workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';
import { callWorkflowBench, HOUR, progressUntil as until } from '../helpers/call-workflow-bench';
import { recordHistory } from '../helpers/histories';
import type { CallDoc } from '../../infra/documents/calls';

/**
 * A candidate's call-back while the call waits for a retry (workflows/call-state.ts): the workflow takes it as
 * the next attempt, inbound, and its report decides it as a dial's would. Time skips only while the test waits
 * for the result, so the retry's two hours pass only after the call-back has been played.
 */
describe('call workflow: call-backs (time-skipping server)', () => {
  const bench = callWorkflowBench();
  const policy: RetryPolicy = { conditions: ['missed'], intervals: [{ type: 'delay', duration: 2, unit: 'hours' }] } as RetryPolicy;

  /** A worker of the real activities on the test's own task queue. */
  const callWorker = async (opts: { maxCachedWorkflows?: number } = {}) =>
    Worker.create({
      ...WORKFLOWS_IN_THREAD,
      ...opts,
      connection: bench.env.nativeConnection,
      taskQueue: bench.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities(bench.deps),
    });

  /** Runs the call, and once it waits for its retry after a missed first dial, plays a call-back that ends as `result`. */
  async function callBackDuringRetry(call: CallDoc, result: 'completed' | 'missed') {
    const worker = await callWorker();
    return worker.runUntil(async () => {
      const handle = await bench.env.client.workflow.start(callWorkflow, {
        taskQueue: bench.taskQueue,
        workflowId: call.workflow_id,
        args: [{ ...callWorkflowInput(call, 30 * 60_000), retryPolicy: policy, sendFallback: true }],
      });
      const waitingFrom = await until(handle, (p) => p.status === 'scheduled' && p.attempt === 1 && p.nextAttemptAt !== null);
      const answerBy = (await bench.env.currentTimeMs()) + HOUR;
      const callBack = () => handle.executeUpdate(callBackUpdate, { args: [{ providerCallId: `inbound-${call._id}`, answerBy }] });
      expect(await callBack()).toEqual({ attempt: 2 });
      // The same inbound call asked again changes nothing, and gets the same answer.
      expect(await callBack()).toEqual({ attempt: 2 });
      await until(handle, (p) => p.status === 'in_progress' && p.attempt === 2);
      const reported = await bench.deps.report({
        callId: call._id,
        attempt: 2,
        result,
        providerCallId: `inbound-${call._id}`,
        endedReason: result === 'completed' ? 'assistant-ended-call' : 'customer-did-not-answer',
        transcript: result === 'completed' ? [{ role: 'candidate', text: 'Five years.' }] : [],
        extracted: result === 'completed' ? { years: 5 } : undefined,
      });
      expect(reported).toBe('recorded');
      const progress = await handle.result();
      const history = await handle.fetchHistory();
      const stored = (await bench.db.calls.findOne({ _id: call._id }))!;
      return { progress, stored, history, waitingFrom, handle };
    });
  }

  it('completes a call waiting for its retry, with the retry timer cancelled and no fallback', async () => {
    const call = await bench.newCall({ outcomes: 'missed,missed,missed', fallback: true });
    const { progress, stored, history } = await callBackDuringRetry(call, 'completed');
    expect(progress.status).toBe('completed');
    expect(stored).toMatchObject({ status: 'completed', extracted_variables: { years: 5 }, messages: [], next_attempt_at: null });
    expect(stored.attempts.map((a) => [a.number, a.direction, a.outcome, a.provider_call_id])).toEqual([
      [1, 'outbound', 'failed', expect.any(String)],
      [2, 'inbound', 'completed', `inbound-${call._id}`],
    ]);
    // One dial only: the call-back took the retry's place.
    expect(bench.simulator.dials.filter((d) => d.callId === call._id)).toHaveLength(1);
    const events = history.events ?? [];
    expect(
      events.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'callBack'),
    ).toHaveLength(2);
    // The two-hour retry timer was started, then cancelled.
    const retryTimer = events.find((e) => Number(e.timerStartedEventAttributes?.startToFireTimeout?.seconds ?? 0) > HOUR / 1000);
    expect(retryTimer).toBeDefined();
    expect(events.some((e) => e.timerCanceledEventAttributes?.startedEventId?.toString() === retryTimer!.eventId!.toString())).toBe(true);
    expect(await bench.activeCall(call)).toBeNull();
    await recordHistory(bench.env.client, call.workflow_id, 'call-back-completes-call');
  });

  it('leaves the retry as it was after a call-back that fails: the dial comes at its time, and the policy counts dials only', async () => {
    const call = await bench.newCall({ outcomes: 'missed,missed,completed', fallback: true });
    const { progress, stored } = await callBackDuringRetry(call, 'missed');
    expect(progress.status).toBe('completed');
    expect(stored.attempts.map((a) => [a.number, a.direction, a.outcome])).toEqual([
      [1, 'outbound', 'failed'],
      [2, 'inbound', 'failed'],
      [3, 'outbound', 'completed'],
    ]);
    // The retry dial came two hours after the first attempt failed, not two hours after the call-back.
    const retryAfter = stored.attempts[2].started_at.getTime() - stored.attempts[0].ended_at!.getTime();
    expect(retryAfter).toBeGreaterThanOrEqual(2 * HOUR);
    expect(retryAfter).toBeLessThan(2 * HOUR + 60_000);
    await recordHistory(bench.env.client, call.workflow_id, 'call-back-fails-retry-kept');
  });

  it('ends at once a call-back the API withdrew after the workflow took it (its answer came too late): failed call_back_incomplete, the retry kept', async () => {
    const call = await bench.newCall({ outcomes: 'missed,completed', fallback: false });
    const worker = await callWorker();
    const stored = await worker.runUntil(async () => {
      const handle = await bench.env.client.workflow.start(callWorkflow, {
        taskQueue: bench.taskQueue,
        workflowId: call.workflow_id,
        args: [{ ...callWorkflowInput(call, 30 * 60_000), retryPolicy: policy }],
      });
      const waiting = await until(handle, (p) => p.status === 'scheduled' && p.attempt === 1 && p.nextAttemptAt !== null);
      const providerCallId = `inbound-${call._id}`;
      const answerBy = (await bench.env.currentTimeMs()) + HOUR;
      expect(await handle.executeUpdate(callBackUpdate, { args: [{ providerCallId, answerBy }] })).toEqual({ attempt: 2 });
      await until(handle, (p) => p.status === 'in_progress' && p.attempt === 2);
      // The caller heard that nothing was pending: no report of a conversation will come, and none is waited for.
      await handle.signal(callBackWithdrawnSignal, providerCallId);
      expect(await until(handle, (p) => p.status === 'scheduled' && p.attempt === 2)).toMatchObject({
        nextAttemptAt: waiting.nextAttemptAt,
      });
      // A report that comes anyway changes nothing: the attempt's first result stands.
      await bench.deps.report({
        callId: call._id,
        attempt: 2,
        result: 'completed',
        providerCallId,
        endedReason: 'assistant-ended-call',
        transcript: [],
      });
      expect((await handle.result()).status).toBe('completed');
      await recordHistory(bench.env.client, call.workflow_id, 'call-back-withdrawn');
      return (await bench.db.calls.findOne({ _id: call._id }))!;
    });
    expect(stored.attempts.map((a) => [a.number, a.direction, a.outcome, a.failure_reason])).toEqual([
      [1, 'outbound', 'failed', 'missed'],
      [2, 'inbound', 'failed', 'call_back_incomplete'],
      [3, 'outbound', 'completed', null],
    ]);
    // The retry dial came at its time, two hours after the first attempt, not after the call-back.
    expect(stored.attempts[2].started_at.getTime() - stored.attempts[0].ended_at!.getTime()).toBeGreaterThanOrEqual(2 * HOUR);
    expect(await bench.activeCall(call)).toBeNull();
  });

  it('withdraws, through the workflow port, a call-back its workflow did not answer in time (no worker was up): null, and nothing recorded', async () => {
    const call = await bench.newCall({ outcomes: 'missed', fallback: false });
    const args: [CallWorkflowInput] = [{ ...callWorkflowInput(call, 30 * 60_000), retryPolicy: policy }];
    // A worker without a cache: the workflow's next task goes to the queue, not to this worker's own sticky
    // queue, which the test server would wait on for good once the worker is gone.
    const handle = await (
      await callWorker({ maxCachedWorkflows: 0 })
    ).runUntil(async () => {
      const started = await bench.env.client.workflow.start(callWorkflow, {
        taskQueue: bench.taskQueue,
        workflowId: call.workflow_id,
        args,
      });
      await until(started, (p) => p.status === 'scheduled' && p.attempt === 1 && p.nextAttemptAt !== null);
      return started;
    });
    // No worker: the Update waits at the server, and the port gives up on it.
    const port = bench.workflows();
    expect(await port.callBack(call._id, `inbound-${call._id}`, 100)).toBeNull();
    const history = await (
      await callWorker()
    ).runUntil(async () => {
      await handle.signal('cancelCall');
      await handle.result();
      return handle.fetchHistory();
    });
    const signals = (history.events ?? []).flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? []);
    expect(signals).toContain('callBackWithdrawn');
    const stored = (await bench.db.calls.findOne({ _id: call._id }))!;
    expect(stored.attempts.map((a) => a.direction)).toEqual(['outbound']);
  });

  it('refuses a call-back asked after its answer time, or withdrawn before it was asked (the caller heard nothing was pending), and records nothing', async () => {
    const call = await bench.newCall({ outcomes: 'missed', fallback: false });
    const worker = await callWorker();
    await worker.runUntil(async () => {
      const handle = await bench.env.client.workflow.start(callWorkflow, {
        taskQueue: bench.taskQueue,
        workflowId: call.workflow_id,
        args: [{ ...callWorkflowInput(call, 30 * 60_000), retryPolicy: policy, scheduleAt: (await bench.env.currentTimeMs()) + HOUR }],
      });
      await until(handle, (p) => p.status === 'scheduled');
      const late = { providerCallId: 'late', answerBy: (await bench.env.currentTimeMs()) - 1 };
      expect(await handle.executeUpdate(callBackUpdate, { args: [late] })).toEqual({ refused: true });
      // One the API withdrew before the workflow was asked (the signal can reach it first) is refused too.
      await handle.signal(callBackWithdrawnSignal, 'withdrawn');
      const withdrawn = { providerCallId: 'withdrawn', answerBy: (await bench.env.currentTimeMs()) + HOUR };
      expect(await handle.executeUpdate(callBackUpdate, { args: [withdrawn] })).toEqual({ refused: true });
      // One that names no inbound call is refused by the Update's validator, before it reaches the history.
      await expect(handle.executeUpdate(callBackUpdate, { args: [{ providerCallId: '', answerBy: late.answerBy }] })).rejects.toMatchObject(
        {
          name: 'WorkflowUpdateFailedError',
          cause: { message: expect.stringMatching(/names its inbound call/) },
        },
      );
      await handle.signal('cancelCall');
      expect((await handle.result()).status).toBe('cancelled');
    });
    const stored = (await bench.db.calls.findOne({ _id: call._id }))!;
    expect(stored.attempts).toEqual([]);
  });
});
