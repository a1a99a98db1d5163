import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { callWorkflow, callProgressQuery } from '../../workflows/calls';
import { callWorkflowInput } from '../../workflows/call-start';
import { optOutWorkflow, optOutWorkflowId } from '../../workflows/suppressions';
import { workspaceDoc } from '../helpers/interview-doc';
import { uniqueName, workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';
import { callWorkflowBench, DAY, HOUR } from '../helpers/call-workflow-bench';
import { recordHistory } from '../helpers/histories';
import { waitFor } from '../helpers/wait';

/**
 * The suppression list inside the call workflow (docs/contact-rules.md): read right before each dial and each
 * message, and an opt-out's own workflow cancelling the calls that wait.
 */
describe('call workflow: opt-outs (time-skipping server)', () => {
  const bench = callWorkflowBench();
  const { newCall, run } = bench;

  async function ownWorkspace(): Promise<string> {
    const id = uniqueName('ws');
    await bench.db.workspaces.insertOne(workspaceDoc(id));
    return id;
  }
  const suppress = (workspaceId: string, channels: Array<'voice' | 'whatsapp' | 'email'>) =>
    bench.deps.stores.suppressions.add({ workspaceId, phone: '+14155550100', channels, source: 'api' });

  it('never dials a phone suppressed for voice before its dial: the call ends cancelled, opted_out, its messages skipped', async () => {
    const workspaceId = await ownWorkspace();
    const call = await newCall({ workspaceId, preCall: true, fallback: true });
    await suppress(workspaceId, ['voice']);
    const { progress, stored, dials } = await run(call, { scheduleAt: (await bench.env.currentTimeMs()) + HOUR });
    expect(progress.status).toBe('cancelled');
    expect(dials).toHaveLength(0);
    expect(stored).toMatchObject({ status: 'cancelled', cancel_reason: 'opted_out', attempts: [] });
    expect(stored.messages).toEqual([expect.objectContaining({ kind: 'pre_call', status: 'skipped', skip_reason: 'opted_out' })]);
    await recordHistory(bench.env.client, call.workflow_id, 'call-dial-refused-opted-out');
  });

  it('lets the call go on without its messages when only WhatsApp is suppressed', async () => {
    const workspaceId = await ownWorkspace();
    const call = await newCall({ workspaceId, preCall: true, fallback: true, outcomes: 'missed' });
    await suppress(workspaceId, ['whatsapp']);
    const { progress, stored, dials } = await run(call);
    expect(progress.status).toBe('failed');
    expect(dials).toHaveLength(1);
    expect(stored.messages.map((m) => [m.kind, m.status, m.skip_reason])).toEqual([
      ['pre_call', 'skipped', 'opted_out'],
      ['fallback', 'skipped', 'opted_out'],
    ]);
  });

  it("cancels a call that waits for its day at once when an opt-out's workflow finds it", async () => {
    const workspaceId = await ownWorkspace();
    const call = await newCall({ workspaceId });
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: bench.env.nativeConnection,
      taskQueue: bench.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities(bench.deps),
    });
    const scheduleAt = (await bench.env.currentTimeMs()) + DAY;
    await worker.runUntil(async () => {
      const handle = await bench.env.client.workflow.start(callWorkflow, {
        taskQueue: bench.taskQueue,
        workflowId: call.workflow_id,
        args: [{ ...callWorkflowInput(call, 30 * 60_000), scheduleAt }],
      });
      // Scheduled: the workflow waits on its timer.
      for (let i = 0; i < 50 && (await handle.query(callProgressQuery)).nextAttemptAt !== scheduleAt; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const entry = await suppress(workspaceId, ['voice', 'whatsapp']);
      const optOut = await bench.env.client.workflow.start(optOutWorkflow, {
        taskQueue: bench.taskQueue,
        workflowId: optOutWorkflowId(entry._id),
        args: [[entry._id]],
      });
      // Polled without awaiting a result, which would let the server skip time to the call's timer: the call
      // is cancelled well before its day, so by the signal, not by the ledger read at its dial.
      const cancelled = await waitFor(
        () => bench.db.calls.findOne({ _id: call._id }),
        (c) => c?.status === 'cancelled',
      );
      expect(cancelled).toMatchObject({ cancel_reason: 'opted_out', attempts: [] });
      expect(await bench.env.currentTimeMs()).toBeLessThan(scheduleAt);
      expect(await optOut.result()).toEqual({ cancelled: 1 });
      expect(await handle.result()).toMatchObject({ status: 'cancelled' });
      await recordHistory(bench.env.client, optOutWorkflowId(entry._id), 'opt-out-cancels-waiting-call');
      await recordHistory(bench.env.client, call.workflow_id, 'call-cancelled-opted-out');
    });
    expect(await bench.db.calls.findOne({ _id: call._id })).toMatchObject({ status: 'cancelled', cancel_reason: 'opted_out' });
  });
});
