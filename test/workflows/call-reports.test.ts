import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import type { VoiceProvider } from '../../providers/voice/port';
import { callWorkflow } from '../../workflows/calls';
import { callWorkflowInput } from '../../workflows/call-start';
import { workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';
import { callWorkflowBench, DAY } from '../helpers/call-workflow-bench';
import { recordHistory } from '../helpers/histories';

/** How an attempt ends when its report is late or lost, a dial's answer is lost, or a provider keeps failing. */
describe('call workflow: reports, lost dials and provider failures (time-skipping server)', () => {
  const bench = callWorkflowBench();
  const { newCall, run } = bench;

  it('counts a call whose provider never reports as failed after the outcome timeout', async () => {
    const call = await newCall({ fallback: true });
    const silent: VoiceProvider = { name: 'silent', dial: async () => ({ accepted: true, providerCallId: 'lost' }) };
    const { progress, stored, startedAt } = await run(call, { outcomeTimeoutMs: 45 * 60_000 }, silent);
    expect(progress.status).toBe('failed');
    expect(stored.failure_reason).toBe('no_outcome');
    // A provider that cannot be asked about the call gets no further wait.
    expect(stored.attempts[0].ended_at!.getTime() - startedAt).toBeGreaterThanOrEqual(45 * 60_000);
    expect(stored.attempts[0].ended_at!.getTime() - startedAt).toBeLessThan(90 * 60_000);
    expect(stored.messages.map((m) => m.kind)).toEqual(['fallback']);
  });

  it('asks the provider about a missing report, waits again while the call is still going, and takes the outcome it reports', async () => {
    const call = await newCall({ fallback: true });
    const asked: number[] = [];
    const lostReport: VoiceProvider = {
      name: 'lost-report',
      dial: async () => ({ accepted: true, providerCallId: 'prov-1' }),
      fetchReport: async (id, ids) => {
        asked.push(Date.now());
        expect(id).toBe('prov-1');
        return asked.length < 2 ? null : { ...ids, result: 'sent_to_voicemail', endedReason: 'voicemail', providerCallId: id };
      },
    };
    const { progress, stored, startedAt } = await run(call, { outcomeTimeoutMs: 45 * 60_000 }, lostReport);
    expect(asked).toHaveLength(2);
    expect(progress.status).toBe('failed');
    expect(stored.failure_reason).toBe('sent_to_voicemail');
    expect(stored.attempts[0]).toMatchObject({ outcome: 'failed', failure_reason: 'sent_to_voicemail', ended_reason: 'voicemail' });
    const endedAfter = stored.attempts[0].ended_at!.getTime() - startedAt;
    expect(endedAfter).toBeGreaterThanOrEqual(90 * 60_000);
    expect(endedAfter).toBeLessThan(135 * 60_000);
    await recordHistory(bench.env.client, call.workflow_id, 'call-lost-report-fetched');
  });

  it('takes a report that was stored but never signalled (its receiver died) at the lost-report check, with its transcript', async () => {
    const call = await newCall();
    const stored: VoiceProvider = {
      name: 'stored',
      dial: async ({ callId, attempt }) => {
        // What the report's path leaves when it dies between storing the report and signalling it.
        await bench.db.callReports.insertOne({
          _id: `${callId}/${attempt}`,
          call_id: callId,
          attempt,
          result: 'completed',
          provider_call_id: 'prov-stored',
          ended_reason: 'assistant-ended-call',
          recording_url: null,
          transcript: [{ role: 'candidate', text: 'Four years.' }],
          extracted_json: JSON.stringify({ years: '4' }),
          received_at: new Date(),
        });
        return { accepted: true, providerCallId: 'prov-stored' };
      },
    };
    const { progress, stored: after, startedAt } = await run(call, { outcomeTimeoutMs: 45 * 60_000 }, stored);
    expect(progress.status).toBe('completed');
    expect(after).toMatchObject({
      status: 'completed',
      transcript: [{ role: 'candidate', text: 'Four years.' }],
      extracted_variables: { years: 4 },
    });
    expect(after.attempts[0]).toMatchObject({ outcome: 'completed', ended_reason: 'assistant-ended-call', provider_status: 'ended' });
    expect(after.attempts[0].ended_at!.getTime() - startedAt).toBeGreaterThanOrEqual(45 * 60_000);
  });

  it('writes a report that arrives after its call has ended into the call, and leaves the outcome as it was', async () => {
    const call = await newCall();
    const silent: VoiceProvider = { name: 'silent', dial: async () => ({ accepted: true, providerCallId: 'late' }) };
    const { stored } = await run(call, { outcomeTimeoutMs: 45 * 60_000 }, silent);
    expect(stored).toMatchObject({ status: 'failed', failure_reason: 'no_outcome' });
    const report = bench.deps.operations.reports.take;
    const late = {
      callId: call._id,
      attempt: 1,
      result: 'missed' as const,
      endedReason: 'customer-did-not-answer',
      // A model's keys, which no stored field name may have: the report is stored all the same.
      extracted: { 'start.date': 'soon', $note: 'x' },
    };
    expect(await report(late)).toBe('recorded');
    expect(await report({ ...late, endedReason: 'something else' })).toBe('duplicate');
    const after = (await bench.db.calls.findOne({ _id: call._id }))!;
    expect(after).toMatchObject({ status: 'failed', failure_reason: 'no_outcome' });
    expect(after.attempts[0]).toMatchObject({ outcome: 'failed', failure_reason: 'no_outcome', ended_reason: 'customer-did-not-answer' });
    expect(await report({ ...late, attempt: 2 })).toBe('unknown');
    expect(await bench.db.callReports.findOne({ _id: `${call._id}/2` })).toBeNull();
  });

  it('gives an attempt up as no_outcome after the provider says it is still going at every check', async () => {
    const call = await newCall();
    let asked = 0;
    const stuck: VoiceProvider = {
      name: 'stuck',
      dial: async () => ({ accepted: true, providerCallId: 'prov-stuck' }),
      fetchReport: async () => {
        asked++;
        return null;
      },
    };
    const { stored, startedAt } = await run(call, { outcomeTimeoutMs: 45 * 60_000 }, stuck);
    expect(asked).toBe(2);
    expect(stored.failure_reason).toBe('no_outcome');
    expect(stored.attempts[0].ended_at!.getTime() - startedAt).toBeGreaterThanOrEqual(135 * 60_000);
  });

  it('finds the call a dial placed before its answer was lost, instead of dialling the attempt again', async () => {
    const call = await newCall();
    let placed = 0;
    let lookups = 0;
    const flaky: VoiceProvider = {
      name: 'flaky',
      dial: async () => {
        placed++;
        // The provider placed the call, but its answer never reached us.
        throw new Error('socket hang up');
      },
      findDial: async (callId, attempt) => {
        lookups++;
        return callId === call._id && attempt === 1 && placed > 0 ? 'prov-placed' : null;
      },
      fetchReport: async (id, ids) => ({ ...ids, result: 'completed', providerCallId: id, transcript: [], extracted: { years: '4' } }),
    };
    const { progress, stored } = await run(call, { outcomeTimeoutMs: 10 * 60_000 }, flaky);
    expect(placed).toBe(1);
    expect(lookups).toBe(1);
    expect(progress.status).toBe('completed');
    expect(stored.attempts).toEqual([expect.objectContaining({ number: 1, provider_call_id: 'prov-placed', outcome: 'completed' })]);
    expect(stored.extracted_variables).toEqual({ years: 4 });
  });

  it('fails the attempt, not the workflow, when the provider cannot be reached through every retry', async () => {
    const call = await newCall({ fallback: true });
    let tries = 0;
    const unreachable: VoiceProvider = {
      name: 'unreachable',
      dial: async () => {
        tries++;
        throw new Error('connect ECONNREFUSED');
      },
    };
    const { progress, stored } = await run(call, {}, unreachable);
    expect(tries).toBe(10);
    expect(progress.status).toBe('failed');
    expect(stored).toMatchObject({ status: 'failed', failure_reason: 'provider_error' });
    expect(stored.attempts).toEqual([expect.objectContaining({ outcome: 'failed', failure_reason: 'provider_error' })]);
    expect(stored.messages.map((m) => m.kind)).toEqual(['fallback']);
    expect(await bench.activeCall(call)).toBeNull();
    await recordHistory(bench.env.client, call.workflow_id, 'call-provider-unreachable-then-fallback');
  });

  it('goes on with the call and records the template as failed when WhatsApp keeps failing', async () => {
    const call = await newCall({ preCall: true });
    let tries = 0;
    const send = async (): Promise<never> => {
      tries++;
      throw new Error('HTTP 503 Service temporarily unavailable');
    };
    const down = { name: 'down', prepare: async () => ({ ready: true as const, send }), send };
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: bench.env.nativeConnection,
      taskQueue: bench.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ ...bench.deps, whatsapp: down }),
    });
    const progress = await worker.runUntil(
      bench.env.client.workflow.execute(callWorkflow, {
        taskQueue: bench.taskQueue,
        workflowId: call.workflow_id,
        args: [callWorkflowInput(call, 30 * 60_000)],
      }),
    );
    const stored = (await bench.db.calls.findOne({ _id: call._id }))!;
    expect(tries).toBe(10);
    expect(progress.status).toBe('completed');
    expect(stored.messages).toEqual([
      expect.objectContaining({ kind: 'pre_call', status: 'failed', error: 'HTTP 503 Service temporarily unavailable', provider: 'down' }),
    ]);
    await recordHistory(bench.env.client, call.workflow_id, 'call-pre-call-template-failed');
  });

  it('does not dial again when the worker restarts mid-workflow', async () => {
    const call = await newCall({ outcomes: 'missed' });
    let dialled = 0;
    const slowReport: VoiceProvider = {
      name: 'slow',
      dial: async () => {
        dialled++;
        return { accepted: true, providerCallId: 'p1' };
      },
    };
    const bundle = await workflowBundle();
    // No workflow cache, so the second worker is handed the workflow at once instead of after a sticky-queue timeout.
    const makeWorker = () =>
      Worker.create({
        ...WORKFLOWS_IN_THREAD,
        connection: bench.env.nativeConnection,
        taskQueue: bench.taskQueue,
        workflowBundle: bundle,
        maxCachedWorkflows: 0,
        activities: createActivities({ ...bench.deps, voice: slowReport }),
      });
    const handle = await bench.env.client.workflow.start(callWorkflow, {
      taskQueue: bench.taskQueue,
      workflowId: call.workflow_id,
      args: [callWorkflowInput(call, DAY)],
    });
    const first = await makeWorker();
    await first.runUntil(async () => {
      // Until the attempt is recorded with its provider id: the dial activity has done its work.
      for (let i = 0; i < 100; i++) {
        const c = await bench.db.calls.findOne({ _id: call._id });
        if (c?.attempts[0]?.provider_call_id) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    expect(dialled).toBe(1);
    const second = await makeWorker();
    const progress = await second.runUntil(async () => {
      await bench.deps.operations.reports.take({
        callId: call._id,
        attempt: 1,
        result: 'completed',
        transcript: [],
        extracted: {},
      });
      return handle.result();
    });
    expect(progress.status).toBe('completed');
    expect(dialled).toBe(1);
    expect((await bench.db.calls.findOne({ _id: call._id }))!.attempts).toHaveLength(1);
  });
});
