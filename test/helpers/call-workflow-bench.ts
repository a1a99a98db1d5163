import { Context } from '@temporalio/activity';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import type { ActivityDeps } from '../../activities/deps';
import { SimulatorVoiceProvider } from '../../providers/voice/simulator';
import { buildActivityDeps } from '../../composition/activity-deps';
import { workflowPort } from '../../composition/workflow-port';
import type { VoiceProvider } from '../../providers/voice/port';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import { documentId } from '../../infra/documents/projects';
import { personIndex } from '../../stores/person-index';
import { activeCallKey } from '../../stores/calls';
import { claimOf } from '../../infra/claims';
import type { CallDoc } from '../../infra/documents/calls';
import { callProgressQuery, callWorkflow, type CallProgress, type CallWorkflowInput } from '../../workflows/calls';
import type { WorkflowHandle } from '@temporalio/client';
import { callWorkflowInput } from '../../workflows/call-start';
import { createTimeSkippingEnv } from './time-skipping';
import { testConfig, uniqueName, workflowBundle, WORKFLOWS_IN_THREAD } from './stack';
import { callDoc } from './call-doc';

export const HOUR = 3_600_000;

/** Polls a call workflow's progress until `ready`; the progress then. */
export async function progressUntil(handle: WorkflowHandle, ready: (p: CallProgress) => boolean): Promise<CallProgress> {
  for (let i = 0; i < 400; i++) {
    const p = await handle.query(callProgressQuery);
    if (ready(p)) return p;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the call workflow never reached the state waited for');
}
export const DAY = 24 * HOUR;

/**
 * The call workflow's test bench on the time-skipping server: the real activities on the real database,
 * with the simulator's zero-length calls, which report as they are dialled. Registers the suite's hooks;
 * each test gets its own task queue.
 */
export function callWorkflowBench() {
  const logger = createLogger('silent');
  const bench = {} as {
    env: TestWorkflowEnvironment;
    db: Database;
    simulator: SimulatorVoiceProvider;
    taskQueue: string;
    deps: ActivityDeps;
    logger: typeof logger;
  };
  // Activities read the server's (skipped) clock, so times they record line up with workflow time.
  const clock = () => new Date(Context.current().info.currentAttemptScheduledTimestampMs);

  beforeAll(async () => {
    bench.logger = logger;
    bench.env = await createTimeSkippingEnv();
    bench.db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('wf'));
    bench.deps = buildActivityDeps(
      testConfig({ SIMULATOR_CALL_SECONDS: '0' }),
      { db: bench.db, client: bench.env.client, logger },
      { clock, logger },
    );
    bench.simulator = bench.deps.voice as SimulatorVoiceProvider;
  });
  afterAll(async () => {
    await bench.db?.db.dropDatabase();
    await bench.db?.close();
    await bench.env?.teardown();
  });
  beforeEach(() => {
    bench.taskQueue = uniqueName('tq');
    bench.simulator.dials.length = 0;
  });

  /** `workspaceId`, `timezones`: for the contact rules (a workspace of the test's own, the candidate's zones). */
  async function newCall(
    opts: { outcomes?: string; preCall?: boolean; fallback?: boolean; workspaceId?: string; timezones?: string[] } = {},
  ): Promise<CallDoc> {
    const id = uniqueName('call');
    const call = callDoc(id, {
      ...(opts.workspaceId ? { workspace_id: opts.workspaceId } : {}),
      ...(opts.timezones ? { timezones: opts.timezones } : {}),
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
    await bench.db.calls.insertOne(call);
    // As call/initiate files it: where an opt-out or an erasure finds the call.
    await personIndex(bench.db).file(call.workspace_id, [
      {
        candidateDocId: documentId.candidate(call.project_id, call.candidate_id),
        candidateId: call.candidate_id,
        email: call.candidate.email,
        phone: call.candidate.phone,
      },
    ]);
    await bench.db.candidates.insertOne({
      _id: documentId.candidate(call.project_id, call.candidate_id),
      workspace_id: call.workspace_id,
      project_id: call.project_id,
      candidate_id: call.candidate_id,
      calls: [call._id],
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+14155550100',
      custom_fields: {},
      created_at: new Date(),
      updated_at: new Date(),
    });
    // The candidate's active call, as call/initiate claims it.
    await bench.db.claims.insertOne({
      _id: activeCallKey(call.project_id, call.candidate_id),
      holder: id,
      expires_at: null,
      created_at: new Date(),
    });
    return call;
  }

  /** The call the candidate of `call` has under way (its claim's holder), or null once freed. */
  async function activeCall(call: CallDoc): Promise<string | null> {
    return (await claimOf(bench.db, activeCallKey(call.project_id, call.candidate_id)))?.holder ?? null;
  }

  async function run(call: CallDoc, input: Partial<CallWorkflowInput> = {}, voice: VoiceProvider = bench.simulator) {
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: bench.env.nativeConnection,
      taskQueue: bench.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ ...bench.deps, voice }),
    });
    const startedAt = await bench.env.currentTimeMs();
    const progress = await worker.runUntil(
      bench.env.client.workflow.execute(callWorkflow, {
        taskQueue: bench.taskQueue,
        workflowId: call.workflow_id,
        args: [{ ...callWorkflowInput(call, 30 * 60_000), ...input }],
      }),
    );
    const stored = (await bench.db.calls.findOne({ _id: call._id }))!;
    const dials = bench.simulator.dials.filter((d) => d.callId === call._id);
    return { progress, stored, dials, startedAt };
  }

  /** The service's workflow port (composition/workflow-port.ts) on this server and the test's task queue. */
  const workflows = () =>
    workflowPort(bench.env.client, { TEMPORAL_TASK_QUEUE: bench.taskQueue, TEMPORAL_NAMESPACE: 'default' }, bench.logger);

  return Object.assign(bench, { newCall, run, activeCall, workflows });
}
