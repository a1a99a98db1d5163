import { Context } from '@temporalio/activity';
import { Worker } from '@temporalio/worker';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import type { ActivityDeps } from '../../activities/deps';
import { buildActivityDeps } from '../../composition/activity-deps';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import type { InterviewDoc } from '../../infra/documents/interviews';
import type { Question } from '../../shared/jobs/schema';
import { interviewProgressQuery, interviewWorkflow, type InterviewProgress } from '../../workflows/interviews';
import { interviewDoc, projectDoc, workspaceDoc } from './interview-doc';
import { jobDetails } from './job';
import { createTimeSkippingEnv } from './time-skipping';
import { testConfig, uniqueName, workflowBundle, WORKFLOWS_IN_THREAD } from './stack';

export const DAY = 86_400_000;
export const job = jobDetails({
  title: 'Platform Engineer',
  skills_required: ['Kubernetes', 'Terraform', 'Go'],
  skills_good_to_have: ['Prometheus', 'Helm', 'AWS'],
});
export const QUESTIONS: Question[] = [
  { question: 'How do you run Kubernetes upgrades?', type: 'text', time_limit_seconds: 300 },
  { question: 'Tell us about a Terraform module you wrote.', type: 'audio', time_limit_seconds: 120 },
  { question: 'What would you monitor first?', type: 'text', time_limit_seconds: 300 },
];

/**
 * An invitation's workflow on the time-skipping server, with its activities on the real database, played by a
 * test as the candidate and the clock: the setup the deadline and assessment tests share. Registers its own
 * beforeAll and afterAll; `env`, `db` and `deps` are there once beforeAll has run.
 */
export function followedInterviews() {
  const bench = {} as { env: TestWorkflowEnvironment; db: Database; deps: ActivityDeps };
  const logger = createLogger('silent');
  const clock = () => new Date(Context.current().info.currentAttemptScheduledTimestampMs);

  beforeAll(async () => {
    const env = (bench.env = await createTimeSkippingEnv());
    const db = (bench.db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('idl')));
    bench.deps = buildActivityDeps(
      testConfig({ EMAIL_FROM: 'interviews@hiring.test' }),
      { db, client: env.client, logger },
      { clock, logger },
    );
    await db.workspaces.insertMany([
      workspaceDoc('ws_reminding'),
      { ...workspaceDoc('ws_quiet'), settings: { interview_reminders: false } },
    ]);
  });
  afterAll(async () => {
    await bench.db?.db.dropDatabase();
    await bench.db?.close();
    await bench.env?.teardown();
  });

  /** An invitation made now by the test server's clock, its link open for `days`. */
  async function newInterview(workspaceId: string, days: number): Promise<InterviewDoc> {
    const project = projectDoc(uniqueName('prj'), workspaceId, { job });
    await bench.db.projects.insertOne(project);
    const now = new Date(await bench.env.currentTimeMs());
    const interview: InterviewDoc = {
      ...interviewDoc(uniqueName('int'), project, QUESTIONS),
      created_at: now,
      updated_at: now,
      expires_at: new Date(now.getTime() + days * DAY),
    };
    await bench.db.interviews.insertOne(interview);
    return interview;
  }
  const stored = async (i: InterviewDoc) => (await bench.db.interviews.findOne({ _id: i._id }))!;
  const emailsOf = (i: InterviewDoc) => bench.db.emailLog.find({ idempotency_key: { $regex: `^${i._id}` } }).toArray();

  /**
   * Runs the workflow on a worker while `script` plays the candidate and the clock. Time moves only by
   * bench.env.sleep (bounded skips) and waits on the workflow's progress, never by result(), so each step is exact.
   */
  async function follow(
    interview: InterviewDoc,
    script: (step: { handle: WorkflowHandle<typeof interviewWorkflow>; taskQueue: string }) => Promise<void>,
    overrides: Partial<ActivityDeps> = {},
  ): Promise<void> {
    const taskQueue = uniqueName('tq');
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: bench.env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ ...bench.deps, ...overrides }),
    });
    await worker.runUntil(async () => {
      const handle = await bench.env.client.workflow.start(interviewWorkflow, {
        taskQueue,
        workflowId: interview.workflow_id,
        args: [{ interviewId: interview._id }],
      });
      await progressOf(handle, (p) => p.status === 'invited');
      await script({ handle, taskQueue });
    });
  }

  /** The workflow's progress once `done` holds, looking every 50 ms of real time (no time is skipped). */
  async function progressOf(
    handle: WorkflowHandle<typeof interviewWorkflow>,
    done: (p: InterviewProgress) => boolean,
  ): Promise<InterviewProgress> {
    for (let tries = 0; tries < 400; tries++) {
      const progress = await handle.query(interviewProgressQuery).catch(() => null);
      if (progress && done(progress)) return progress;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the workflow did not get there: ${JSON.stringify(await handle.query(interviewProgressQuery))}`);
  }
  async function closed(handle: WorkflowHandle<typeof interviewWorkflow>): Promise<InterviewProgress> {
    for (let tries = 0; tries < 400 && (await handle.describe()).status.name === 'RUNNING'; tries++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    return handle.query(interviewProgressQuery);
  }

  return Object.assign(bench, { newInterview, stored, emailsOf, follow, progressOf, closed });
}
