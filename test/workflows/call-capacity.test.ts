import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { callChanges } from '../../activities/call-changes';
import { claim, release } from '../../infra/claims';
import type { VoiceProvider } from '../../providers/voice/port';
import { callProgressQuery, callWorkflow, cancelCallSignal, capacityChangedSignal } from '../../workflows/calls';
import { callWorkflowInput } from '../../workflows/call-start';
import { callWorkflowBench } from '../helpers/call-workflow-bench';
import { recordHistory } from '../helpers/histories';
import { testConfig, uniqueName, workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';
import { buildActivityDeps } from '../../composition/activity-deps';
import type { ActivityDeps } from '../../activities/deps';
import type { SimulatorVoiceProvider } from '../../providers/voice/simulator';
import { ensureSearchAttributes } from '../../composition/search-attributes';
import { waitFor } from '../helpers/wait';

/** Waiting for capacity: the workspace's calling slots and a busy provider (time-skipping server). */
describe('call workflow: capacity', () => {
  const bench = callWorkflowBench();
  // Once in a while on a loaded machine, a workflow on the time-skipping server stops making progress until the
  // test's timeout (seen with CI's suites running alongside; the same order passes alone). Each test holds the
  // slots of a workspace of its own, so a second try starts clean; the first try's errors stay in the log.
  jest.retryTimes(1, { logErrorsBeforeRetry: true });
  /** A workspace of the test's own, and its ten calling slots held by other calls. */
  async function heldWorkspace() {
    const workspaceId = uniqueName('ws');
    const holders = Array.from({ length: 10 }, (_, i) => ({ key: `call-slot/${workspaceId}/${i}`, holder: uniqueName('other') }));
    for (const h of holders) await claim(bench.db, h.key, h.holder, { expiresAt: new Date(Date.now() + 3_600_000) });
    return { workspaceId, holders };
  }

  /** A worker for the call, on the time-skipping server unless `on` names another connection and its deps. */
  async function start(
    call: Awaited<ReturnType<typeof bench.newCall>>,
    voice: VoiceProvider = bench.simulator,
    on: { connection: NativeConnection; deps: ActivityDeps } = { connection: bench.env.nativeConnection, deps: bench.deps },
  ) {
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: on.connection,
      taskQueue: bench.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ ...on.deps, voice }),
    });
    return {
      worker,
      args: {
        taskQueue: bench.taskQueue,
        workflowId: call.workflow_id,
        args: [callWorkflowInput(call, 30 * 60_000)] as [ReturnType<typeof callWorkflowInput>],
      },
    };
  }

  it("waits out a provider's 429 without counting an attempt, then dials the same attempt", async () => {
    const call = await bench.newCall();
    let refusals = 0;
    const busyTwice: VoiceProvider = {
      name: 'busy-twice',
      dial: async (req) => {
        if (refusals < 2) {
          refusals++;
          return { accepted: false, reason: 'provider_error', busy: true, retryAfterMs: 30_000 };
        }
        return bench.simulator.dial(req);
      },
    };
    const { worker, args } = await start(call, busyTwice);
    const progress = await worker.runUntil(bench.env.client.workflow.execute(callWorkflow, args));
    expect(progress.status).toBe('completed');
    const stored = (await bench.db.calls.findOne({ _id: call._id }))!;
    expect(stored.attempts.map((a) => [a.number, a.outcome])).toEqual([[1, 'completed']]);
    // Its slot is given back: no claim of the workspace's ten is the call's.
    const slots = await Promise.all(
      Array.from({ length: 10 }, (_, i) => bench.db.claims.findOne({ _id: `call-slot/${stored.workspace_id}/${i}` })),
    );
    expect(slots.filter((c) => c?.holder.startsWith(`${call._id}/`))).toEqual([]);
    await recordHistory(bench.env.client, call.workflow_id, 'call-provider-busy-then-completed');
  });

  it('waits while every slot of the workspace is held, dials once one is given back, and can be cancelled meanwhile', async () => {
    const { workspaceId, holders } = await heldWorkspace();
    const [first, second] = [await bench.newCall({ workspaceId }), await bench.newCall({ workspaceId })];
    const { worker, args } = await start(first);
    const done = await worker.runUntil(async () => {
      const handle = await bench.env.client.workflow.start(callWorkflow, args);
      const waiting = await waitFor(
        () => handle.query(callProgressQuery),
        (p) => p.status === 'waiting_for_capacity',
        20_000,
      );
      // Shown scheduled, and waiting, by its first look for a slot.
      expect(await bench.db.calls.findOne({ _id: first._id })).toMatchObject({
        status: 'waiting_for_capacity',
        scheduled_for: expect.any(Date),
        events: ['call.scheduled/1'],
      });
      await release(bench.db, holders[3].key, holders[3].holder);
      const progress = await handle.result();
      // The slot it gave back is taken by another call: the second call waits, and is cancelled while it does.
      holders[3].holder = uniqueName('other');
      await claim(bench.db, holders[3].key, holders[3].holder, { expiresAt: new Date(Date.now() + 3_600_000) });
      const other = await bench.env.client.workflow.start(callWorkflow, {
        ...args,
        workflowId: second.workflow_id,
        args: [callWorkflowInput(second, 30 * 60_000)],
      });
      await waitFor(
        () => other.query(callProgressQuery),
        (p) => p.status === 'waiting_for_capacity',
        20_000,
      );
      await other.signal(cancelCallSignal);
      return { waiting, progress, cancelled: await other.result() };
    });
    expect(done.waiting.attempt).toBe(1);
    expect(done.progress.status).toBe('completed');
    expect(done.cancelled.status).toBe('cancelled');
    expect(bench.simulator.dials.filter((d) => d.callId === second._id)).toHaveLength(0);
    await recordHistory(bench.env.client, first.workflow_id, 'call-waited-for-a-slot');
    await recordHistory(bench.env.client, second.workflow_id, 'call-cancelled-waiting-for-a-slot');
    for (const h of holders) await release(bench.db, h.key, h.holder);
  });

  /**
   * On the dev server, not the time-skipping one: the test is about real time (a look 4 to 5 s away against a
   * dial within a second), and the time-skipping server, held still for seconds while the workflow's timers
   * ran on the clock, stalled with it now and then on a loaded machine, a retry included.
   */
  describe('on the dev server', () => {
    let connection: NativeConnection;
    let client: Client;
    let deps: ActivityDeps;
    beforeAll(async () => {
      const address = process.env.TEST_TEMPORAL_ADDRESS!;
      connection = await NativeConnection.connect({ address });
      client = new Client({ connection: await Connection.connect({ address }) });
      await ensureSearchAttributes(client, 'default', bench.logger);
      deps = buildActivityDeps(
        testConfig({ SIMULATOR_CALL_SECONDS: '0' }),
        { db: bench.db, client, logger: bench.logger },
        { logger: bench.logger },
      );
    });
    afterAll(async () => {
      await connection?.close();
      await client?.connection.close();
    });

    /**
     * How long after `wake` the waiting call is dialled: `wake` runs once the call is past its looks after 1 and
     * 2 s, so its next look is 4 to 5 s away.
     */
    async function dialledAfter(call: Awaited<ReturnType<typeof bench.newCall>>, wake: (handle: WorkflowHandle) => Promise<void>) {
      const simulator = deps.voice as SimulatorVoiceProvider;
      const { worker, args } = await start(call, simulator, { connection, deps });
      return worker.runUntil(async () => {
        const handle = await client.workflow.start(callWorkflow, args);
        await waitFor(
          () => handle.query(callProgressQuery),
          (p) => p.status === 'waiting_for_capacity',
          20_000,
        );
        await new Promise((r) => setTimeout(r, 3_500));
        const wokenAt = Date.now();
        await wake(handle);
        await waitFor(
          async () => simulator.dials.find((d) => d.callId === call._id),
          (d) => d !== undefined,
          10_000,
        );
        const dialledAt = Date.now();
        await handle.result();
        return dialledAt - wokenAt;
      });
    }

    it('looks again at once when told the cap changed, not at its next look', async () => {
      const { workspaceId, holders } = await heldWorkspace();
      const call = await bench.newCall({ workspaceId });
      const delay = await dialledAfter(call, async (handle) => {
        await release(bench.db, holders[0].key, holders[0].holder);
        await handle.signal(capacityChangedSignal);
      });
      expect(delay).toBeLessThan(1_000);
      await recordHistory(client, call.workflow_id, 'call-woken-by-a-raised-cap');
      for (const h of holders.slice(1)) await release(bench.db, h.key, h.holder);
    }, 60_000);

    it('looks again at once when another call of the workspace gives its slot back, not at its next look', async () => {
      const { workspaceId, holders } = await heldWorkspace();
      // The last slot is held by a call of the workspace, which ends while the other waits.
      await release(bench.db, holders[9].key, holders[9].holder);
      const ending = await bench.newCall({ workspaceId });
      const slot = await deps.stores.callSlots.take(workspaceId, `${ending._id}/1`, 10, new Date(Date.now() + 3_600_000));
      expect(slot).not.toBeNull();
      const call = await bench.newCall({ workspaceId });
      // As an attempt's end gives its slot back (activities/call-bookkeeping.ts), with no signal of the test's.
      const delay = await dialledAfter(call, () => callChanges(deps).releaseHeldSlot({ ...ending, capacity_slot: slot }));
      expect(delay).toBeLessThan(1_000);
      for (const h of holders.slice(0, 9)) await release(bench.db, h.key, h.holder);
    }, 60_000);
  });
});
