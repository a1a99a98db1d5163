import { Worker } from '@temporalio/worker';
import type { WorkflowHandle } from '@temporalio/client';
import { createActivities } from '../../activities';
import type { VoiceProvider } from '../../providers/voice/port';
import type { RetryPolicy } from '../../shared/calls/schema';
import type { AttemptResult } from '../../shared/calls/retry';
import { callProgressQuery, callWorkflow, cancelCallSignal, cancelOutcomeUpdate } from '../../workflows/calls';
import { callWorkflowInput } from '../../workflows/call-start';
import { callWorkflowBench } from '../helpers/call-workflow-bench';
import { recordHistory } from '../helpers/histories';
import { workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import type { CallDoc } from '../../infra/documents/calls';

/** Cancelling a call in each state it can be cancelled in (time-skipping server). */
describe('call workflow: cancel', () => {
  const bench = callWorkflowBench();
  const retryOnMiss: RetryPolicy = { conditions: ['missed'], intervals: [{ type: 'delay', duration: 2, unit: 'hours' }] };
  /** A provider whose calls go on until the test reports them. */
  const ringing: VoiceProvider = { name: 'ringing', dial: async ({ attempt }) => ({ accepted: true, providerCallId: `prov-${attempt}` }) };

  /** Runs the call's workflow while `script` plays the ATS and the provider; the workflow's end and the stored call. */
  async function follow(call: CallDoc, voice: VoiceProvider, script: (handle: WorkflowHandle<typeof callWorkflow>) => Promise<void>) {
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: bench.env.nativeConnection,
      taskQueue: bench.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ ...bench.deps, voice }),
    });
    const progress = await worker.runUntil(async () => {
      const handle = await bench.env.client.workflow.start(callWorkflow, {
        taskQueue: bench.taskQueue,
        workflowId: call.workflow_id,
        args: [{ ...callWorkflowInput(call, 30 * 60_000), retryPolicy: retryOnMiss }],
      });
      await script(handle);
      return handle.result();
    });
    return { progress, stored: (await bench.db.calls.findOne({ _id: call._id }))! };
  }
  const report = (call: CallDoc, result: AttemptResult) =>
    bench.deps.operations.reports.take({
      callId: call._id,
      attempt: 1,
      result,
      providerCallId: 'prov-1',
      ...(result === 'completed' ? { transcript: [{ role: 'candidate' as const, text: 'Three years.' }], extracted: { years: 3 } } : {}),
    });
  const storedStatus = async (call: CallDoc) => (await bench.db.calls.findOne({ _id: call._id }))!.status;
  /**
   * Once the attempt is under way, the cancel, and its outcome asked (the Update the API asks after its signal):
   * the status the workflow answered with, which is the call's stored one by then.
   */
  const cancelDuringAttempt = async (handle: WorkflowHandle<typeof callWorkflow>, call: CallDoc) => {
    await waitFor(
      () => handle.query(callProgressQuery),
      (p) => p.status === 'in_progress',
      20_000,
    );
    await handle.signal(cancelCallSignal);
    const answered = await handle.executeUpdate(cancelOutcomeUpdate, { args: ['taken'] });
    expect(await storedStatus(call)).toBe(answered);
    return answered;
  };
  const freed = (call: CallDoc) => bench.activeCall(call);

  it('lets an attempt under way finish, shows the call cancelling meanwhile, then cancels it with no retry and no fallback', async () => {
    const call = await newCallWithFallback();
    const { progress, stored } = await follow(call, ringing, async (handle) => {
      expect(await cancelDuringAttempt(handle, call)).toBe('cancelling');
      expect((await handle.query(callProgressQuery)).status).toBe('cancelling');
      await report(call, 'missed');
    });
    expect(progress.status).toBe('cancelled');
    expect(stored).toMatchObject({ status: 'cancelled', failure_reason: null, next_attempt_at: null, messages: [] });
    expect(stored.attempts).toEqual([expect.objectContaining({ number: 1, outcome: 'failed', failure_reason: 'missed' })]);
    expect(await freed(call)).toBeNull();
    await recordHistory(bench.env.client, call.workflow_id, 'call-cancelled-during-attempt');
  });

  it('completes a call cancelled during the attempt that reached the candidate, with its data', async () => {
    const call = await newCallWithFallback();
    const { progress, stored } = await follow(call, ringing, async (handle) => {
      expect(await cancelDuringAttempt(handle, call)).toBe('cancelling');
      await report(call, 'completed');
    });
    expect(progress.status).toBe('completed');
    expect(stored).toMatchObject({ status: 'completed', extracted_variables: { years: 3 } });
  });

  it('cancels a call waiting for its retry at once, with no further dial and no fallback', async () => {
    const call = await newCallWithFallback('missed');
    const { progress, stored } = await follow(call, bench.simulator, async (handle) => {
      await waitFor(
        () => handle.query(callProgressQuery),
        // The retry's wait: the first attempt is also `scheduled` (with no next time) until its slot is taken.
        (p) => p.status === 'scheduled' && p.attempt === 1 && p.nextAttemptAt !== null,
        20_000,
      );
      await handle.signal(cancelCallSignal);
      // Asked until the call has ended: a call waiting for its retry ends at once.
      expect(await handle.executeUpdate(cancelOutcomeUpdate, { args: ['ended'] })).toBe('cancelled');
    });
    expect(progress.status).toBe('cancelled');
    expect(stored).toMatchObject({ status: 'cancelled', messages: [], next_attempt_at: null });
    expect(bench.simulator.dials.filter((d) => d.callId === call._id)).toHaveLength(1);
    expect(await freed(call)).toBeNull();
    await recordHistory(bench.env.client, call.workflow_id, 'call-cancelled-between-attempts');
  });

  function newCallWithFallback(outcomes?: string) {
    return bench.newCall({ fallback: true, outcomes });
  }
});
