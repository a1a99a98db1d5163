import { Context } from '@temporalio/activity';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities, type ActivityDeps } from '../../activities';
import { SimulatorVoiceProvider } from '../../providers/voice/simulator';
import { buildActivityDeps } from '../../composition/activity-deps';
import type { VoiceProvider } from '../../providers/voice/port';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import { recordId } from '../../infra/records/projects';
import { type CallDoc } from '../../infra/records/calls';
import { callProgressQuery, callWorkflow, callWorkflowInput, cancelCallSignal, type CallWorkflowInput } from '../../workflows/calls';
import type { RetryPolicy, WorkingHours } from '../../shared/calls/schema';
import { DAYS } from '../../shared/calls/working-hours';
import { createCallReporter } from '../../api/calls/reports';
import { createTimeSkippingEnv } from '../helpers/time-skipping';
import { testConfig, uniqueName, workflowBundle } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { callDoc } from '../helpers/call-doc';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const logger = createLogger('silent');

describe('call workflow on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  let db: Database;
  let simulator: SimulatorVoiceProvider;
  let taskQueue: string;
  let deps: ActivityDeps;
  // Activities read the server's (skipped) clock, so times they record line up with workflow time.
  const clock = () => new Date(Context.current().info.currentAttemptScheduledTimestampMs);

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('wf'));
    // Zero-length simulated calls report as they are dialled, before the dial activity returns.
    deps = buildActivityDeps(testConfig({ SIMULATOR_CALL_SECONDS: '0' }), { db, client: env.client, logger }, { clock, logger });
    simulator = deps.voice as SimulatorVoiceProvider;
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
    await env?.teardown();
  });
  beforeEach(() => {
    taskQueue = uniqueName('tq');
    simulator.dials.length = 0;
  });

  async function newCall(opts: { outcomes?: string; preCall?: boolean; fallback?: boolean } = {}): Promise<CallDoc> {
    const id = uniqueName('call');
    const call = callDoc(id, {
      candidate: {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: '+14155550100',
        custom_fields: opts.outcomes ? { simulated_outcomes: opts.outcomes } : {},
      },
      extract_variables: [{ label: 'years', type: 'integer', description: 'Years of experience' }],
      whatsapp: {
        pre_call: opts.preCall ? { template_name: 'reminder', variables: { body_1: 'Ada' } } : null,
        fallback: opts.fallback ? { template_name: 'missed_you', variables: { body_1: 'Ada' } } : null,
      },
    });
    await db.calls.insertOne(call);
    await db.candidates.insertOne({
      _id: recordId.candidate('prj_test', id),
      workspace_id: 'ws_test',
      project_id: 'prj_test',
      candidate_id: id,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+14155550100',
      custom_fields: {},
      active_call_id: id,
      created_at: new Date(),
      updated_at: new Date(),
    });
    return call;
  }

  async function run(call: CallDoc, input: Partial<CallWorkflowInput> = {}, voice: VoiceProvider = simulator) {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ ...deps, voice }),
    });
    const startedAt = await env.currentTimeMs();
    const progress = await worker.runUntil(
      env.client.workflow.execute(callWorkflow, {
        taskQueue,
        workflowId: call.workflow_id,
        args: [{ ...callWorkflowInput(call, 30 * 60_000), ...input }],
      }),
    );
    const stored = (await db.calls.findOne({ _id: call._id }))!;
    const dials = simulator.dials.filter((d) => d.callId === call._id);
    return { progress, stored, dials, startedAt };
  }

  it('answers the callProgress query while it sleeps, and a cancelCall signal ends it cancelled without a dial', async () => {
    const call = await newCall({ fallback: true });
    const scheduleAt = (await env.currentTimeMs()) + 2 * DAY;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities(deps),
    });
    const outcome = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(callWorkflow, {
        taskQueue,
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
    const stored = (await db.calls.findOne({ _id: call._id }))!;
    expect({ status: stored.status, attempts: stored.attempts.length, messages: stored.messages.length }).toEqual({
      status: 'cancelled',
      attempts: 0,
      messages: 0,
    });
    expect(simulator.dials.filter((d) => d.callId === call._id)).toHaveLength(0);
  });

  it('dials at schedule_at days ahead, as given, after sending the pre-call template once', async () => {
    const call = await newCall({ preCall: true });
    const scheduleAt = (await env.currentTimeMs()) + 3 * DAY + 17 * 60_000;
    const { progress, stored, dials } = await run(call, { scheduleAt, workingHours: { monday: [{ start_minute: 0, end_minute: 1 }] } });
    expect(progress.status).toBe('completed');
    expect(dials).toHaveLength(1);
    expect(Math.abs(dials[0].at.getTime() - scheduleAt)).toBeLessThan(5_000);
    expect(stored.scheduled_for?.getTime()).toBe(scheduleAt);
    expect(stored.messages).toHaveLength(1);
    expect(stored.messages[0]).toMatchObject({ kind: 'pre_call', status: 'sent', template_name: 'reminder', variables: { body_1: 'Ada' } });
    expect(stored.messages[0].sent_at!.getTime()).toBeLessThanOrEqual(dials[0].at.getTime());
    expect(await db.whatsappLog.countDocuments({ call_id: call._id })).toBe(1);
    expect(stored.extracted_variables).toEqual({ years: 3 });
    expect(await db.candidates.findOne({ candidate_id: call._id })).toMatchObject({ active_call_id: null });
  });

  it('waits for the next shift when called outside working hours (tomorrow)', async () => {
    const call = await newCall();
    const now = await env.currentTimeMs();
    const tomorrow = new Date(now + DAY);
    const hours: WorkingHours = { [DAYS[tomorrow.getUTCDay()]]: [{ start_minute: 540, end_minute: 600 }] };
    const expected = Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate(), 9, 0);
    const { dials, stored } = await run(call, { workingHours: hours });
    expect(stored.scheduled_for?.getTime()).toBe(expected);
    expect(Math.abs(dials[0].at.getTime() - expected)).toBeLessThan(5_000);
  });

  it('waits for a later shift today', async () => {
    const call = await newCall();
    const now = await env.currentTimeMs();
    const dayStart = Math.floor(now / DAY) * DAY;
    const minute = Math.floor((now - dayStart) / 60_000);
    if (minute + 60 > 1440) return; // too close to midnight for a later shift today
    const hours: WorkingHours = { [DAYS[new Date(now).getUTCDay()]]: [{ start_minute: minute + 30, end_minute: minute + 60 }] };
    const { stored } = await run(call, { workingHours: hours });
    expect(stored.scheduled_for?.getTime()).toBe(dayStart + (minute + 30) * 60_000);
  });

  it('waits a week for the only shift when it is over for today', async () => {
    const call = await newCall();
    const now = await env.currentTimeMs();
    const dayStart = Math.floor(now / DAY) * DAY;
    const minute = Math.floor((now - dayStart) / 60_000);
    if (minute === 0) return; // the one minute of the week where no shift can be "over for today"
    const hours: WorkingHours = { [DAYS[new Date(now).getUTCDay()]]: [{ start_minute: 0, end_minute: minute }] };
    const { stored } = await run(call, { workingHours: hours });
    expect(stored.scheduled_for?.getTime()).toBe(dayStart + 7 * DAY);
  });

  it('dials at once when working hours are disabled', async () => {
    const call = await newCall();
    const { dials, startedAt } = await run(call, { workingHours: { enabled: false, monday: [] } });
    expect(dials[0].at.getTime() - startedAt).toBeLessThan(5_000);
  });

  it('retries on the policy reasons with delay and specific_datetime intervals, then completes', async () => {
    const call = await newCall({ outcomes: 'missed,declined,completed' });
    const start = await env.currentTimeMs();
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
      expect(await db.whatsappLog.countDocuments({ call_id: call._id, kind: 'fallback' })).toBe(1);
    },
  );

  it('sends the fallback without retrying a reason outside the conditions', async () => {
    const call = await newCall({ outcomes: 'silenced', fallback: true });
    const { stored, dials } = await run(call, { retryPolicy: { conditions: ['missed'] } });
    expect(dials).toHaveLength(1);
    expect(stored).toMatchObject({ status: 'failed', failure_reason: 'silenced' });
    expect(stored.messages.map((m) => m.kind)).toEqual(['fallback']);
  });

  it('makes one attempt without a retry policy', async () => {
    const call = await newCall({ outcomes: 'missed' });
    const { stored, dials } = await run(call);
    expect(dials).toHaveLength(1);
    expect(stored).toMatchObject({ status: 'failed', failure_reason: 'missed', messages: [] });
  });

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
        return asked.length < 2 ? null : { ...ids, outcome: 'sent_to_voicemail', endedReason: 'voicemail', providerCallId: id };
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
      fetchReport: async (id, ids) => ({ ...ids, outcome: 'completed', providerCallId: id, transcript: [], extracted: { years: '4' } }),
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
    expect(await db.candidates.findOne({ candidate_id: call.candidate_id })).toMatchObject({ active_call_id: null });
  });

  it('goes on with the call and records the template as failed when WhatsApp keeps failing', async () => {
    const call = await newCall({ preCall: true });
    let tries = 0;
    const down = {
      name: 'down',
      send: async () => {
        tries++;
        throw new Error('HTTP 503 Service temporarily unavailable');
      },
    };
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ ...deps, whatsapp: down }),
    });
    const progress = await worker.runUntil(
      env.client.workflow.execute(callWorkflow, { taskQueue, workflowId: call.workflow_id, args: [callWorkflowInput(call, 30 * 60_000)] }),
    );
    const stored = (await db.calls.findOne({ _id: call._id }))!;
    expect(tries).toBe(10);
    expect(progress.status).toBe('completed');
    expect(stored.messages).toEqual([
      expect.objectContaining({ kind: 'pre_call', status: 'failed', error: 'HTTP 503 Service temporarily unavailable', provider: 'down' }),
    ]);
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
        connection: env.nativeConnection,
        taskQueue,
        workflowBundle: bundle,
        maxCachedWorkflows: 0,
        activities: createActivities({ ...deps, voice: slowReport }),
      });
    const handle = await env.client.workflow.start(callWorkflow, {
      taskQueue,
      workflowId: call.workflow_id,
      args: [callWorkflowInput(call, DAY)],
    });
    const first = await makeWorker();
    await first.runUntil(async () => {
      // Until the attempt is recorded with its provider id: the dial activity has done its work.
      for (let i = 0; i < 100; i++) {
        const c = await db.calls.findOne({ _id: call._id });
        if (c?.attempts[0]?.provider_call_id) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    expect(dialled).toBe(1);
    const second = await makeWorker();
    const progress = await second.runUntil(async () => {
      await createCallReporter({ db, client: env.client, logger })({
        callId: call._id,
        attempt: 1,
        outcome: 'completed',
        transcript: [],
        extracted: {},
      });
      return handle.result();
    });
    expect(progress.status).toBe('completed');
    expect(dialled).toBe(1);
    expect((await db.calls.findOne({ _id: call._id }))!.attempts).toHaveLength(1);
  });
});
