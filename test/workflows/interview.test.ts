import { Context } from '@temporalio/activity';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import type { ActivityDeps } from '../../activities/deps';
import type { Announce } from '../../infra/webhooks/events';
import { UpstreamError } from '../../shared/errors';
import { buildActivityDeps } from '../../composition/activity-deps';
import { QUESTION_LEASE_MS } from '../../activities/interviews';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import type { InterviewDoc } from '../../infra/documents/interviews';
import type { ProjectDoc } from '../../infra/documents/projects';
import type { Question } from '../../shared/jobs/schema';
import { jobDetails } from '../helpers/job';
import { CountingModel, ScriptedEmail } from '../helpers/scripted-providers';
import { interviewDoc, projectDoc, workspaceDoc } from '../helpers/interview-doc';
import { interviewProgressQuery, interviewWorkflow, type InterviewProgress } from '../../workflows/interviews';
import type { WorkflowHandle } from '@temporalio/client';
import { createTimeSkippingEnv } from '../helpers/time-skipping';
import { testConfig, uniqueName, workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';
import { recordHistory } from '../helpers/histories';

const logger = createLogger('silent');

const job = jobDetails({
  title: 'Platform Engineer',
  description: 'Run our Kubernetes platform.',
  min_experience: 3,
  max_experience: 6,
  location: 'Berlin',
  skills_required: ['Kubernetes', 'Terraform', 'Go'],
  skills_good_to_have: ['Prometheus', 'Helm', 'AWS'],
});

describe('interview workflow on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  let db: Database;
  let deps: ActivityDeps;
  const clock = () => new Date(Context.current().info.currentAttemptScheduledTimestampMs);

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('iwf'));
    deps = buildActivityDeps(
      testConfig({ SIMULATOR_CALL_SECONDS: '0', EMAIL_FROM: 'interviews@hiring.test' }),
      { db, client: env.client, logger },
      { clock, logger },
    );
    await db.workspaces.insertOne(workspaceDoc('ws_iwf'));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
    await env?.teardown();
  });

  async function newProject(questionSet: ProjectDoc['question_set'] = null): Promise<ProjectDoc> {
    const project = projectDoc(uniqueName('prj'), 'ws_iwf', { name: job.title, job_title: job.title, job, question_set: questionSet });
    await db.projects.insertOne(project);
    return project;
  }

  async function newInterview(project: ProjectDoc, customQuestions: Question[] | null = null): Promise<InterviewDoc> {
    const interview = interviewDoc(uniqueName('int'), project, customQuestions);
    await db.interviews.insertOne(interview);
    return interview;
  }

  async function run(
    interviews: InterviewDoc[],
    overrides: Partial<ActivityDeps> = {},
    workflowIds = interviews.map((i) => i.workflow_id),
  ) {
    const taskQueue = uniqueName('tq');
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ ...deps, ...overrides }),
    });
    const results = await worker.runUntil(async () => {
      const handles = await Promise.all(
        interviews.map((i, n) =>
          env.client.workflow.start(interviewWorkflow, { taskQueue, workflowId: workflowIds[n], args: [{ interviewId: i._id }] }),
        ),
      );
      // One at a time: the test server counts time-skipping locks per waiting caller, and many concurrent
      // waits unbalance them. A sent invitation's workflow goes on to wait for the candidate, so each is
      // followed until its invitation is settled (invited or failed), skipping time while it waits.
      const out = [];
      for (const handle of handles) out.push(await settled(handle));
      // What an operator's query in the Temporal UI answers.
      const queried = [];
      for (const handle of handles) queried.push(await handle.query(interviewProgressQuery));
      // The sent invitations' workflows now wait days for their candidates. Left running with no worker, their
      // timers would stall the test server's time skipping for the tests after this one.
      for (const handle of handles) await handle.terminate('the test is over').catch(() => undefined);
      return { out, queried };
    });
    const stored = await Promise.all(interviews.map(async (i) => (await db.interviews.findOne({ _id: i._id }))!));
    return { results: results.out, queried: results.queried, stored };
  }
  /** The invitation's progress once it is sent or has failed, skipping time (the lease test's timers) meanwhile. */
  async function settled(handle: WorkflowHandle<typeof interviewWorkflow>): Promise<InterviewProgress> {
    for (;;) {
      const progress = await handle.query(interviewProgressQuery).catch(() => null);
      if (progress?.status === 'invited') return progress;
      // A failed invitation's workflow ends once its failure is recorded: its final progress, once it has closed.
      // (Not result(): after it, this test server went on skipping time between later tests' polls, days at a time.)
      if (progress?.status === 'failed') {
        while ((await handle.describe()).status.name === 'RUNNING') await new Promise((r) => setTimeout(r, 50));
        return handle.query(interviewProgressQuery);
      }
      await env.sleep(5_000);
    }
  }
  const record = (interview: InterviewDoc, name: string) => recordHistory(env.client, interview.workflow_id, name);

  it('generates questions once per project when many invitations start together', async () => {
    const project = await newProject();
    const interviews = await Promise.all(Array.from({ length: 12 }, () => newInterview(project)));
    const llm = new CountingModel();
    const { results, stored } = await run(interviews, { llm });
    expect(llm.calls).toBe(1);
    expect(results.every((r) => r.status === 'invited' && r.questionsCount === 8)).toBe(true);
    const saved = (await db.projects.findOne({ _id: project._id }))!.question_set!;
    expect(saved).toMatchObject({ provider: 'counting' });
    expect(await db.claims.countDocuments({ _id: `questions/${project._id}` })).toBe(0);
    for (const s of stored) {
      expect(s.questions).toEqual(saved.questions);
      expect(s).toMatchObject({ status: 'invited', email: { status: 'sent', provider: 'log' } });
    }
    // A later invitation for the same project reuses the set.
    const later = await newInterview(project);
    await run([later], { llm });
    expect(llm.calls).toBe(1);
    await record(interviews[0], 'interview-generated-sent');
    await record(later, 'interview-reused-questions-sent');
  });

  it("uses the caller's questions without generating any", async () => {
    const project = await newProject();
    const custom: Question[] = [{ question: 'Why Kubernetes?', type: 'video', time_limit_seconds: 60 }];
    const llm = new CountingModel();
    const interview = await newInterview(project, custom);
    const { results, queried, stored } = await run([interview], { llm });
    expect(llm.calls).toBe(0);
    expect(results[0]).toMatchObject({ status: 'invited', questionsCount: 1 });
    expect(queried[0]).toEqual(results[0]);
    expect(stored[0].questions).toEqual(custom);
    expect((await db.projects.findOne({ _id: project._id }))!.question_set ?? null).toBeNull();
    await record(interview, 'interview-custom-questions-sent');
  });

  it('takes over a generation claim whose worker died once its lease has run out', async () => {
    const now = await env.currentTimeMs();
    const project = await newProject();
    // A claim left by a worker that died mid-generation, its lease running out in 10 s. (Each look at a set
    // another invitation generates waits some 6 s of real time, between timers that skip: a whole lease from
    // now would take a minute of the test's time.)
    const expiresAt = now + 10_000;
    await db.claims.insertOne({
      _id: `questions/${project._id}`,
      holder: 'gen_dead',
      expires_at: new Date(expiresAt),
      created_at: new Date(expiresAt - QUESTION_LEASE_MS),
    });
    const llm = new CountingModel();
    const interview = await newInterview(project);
    const { results } = await run([interview], { llm });
    expect(results[0].status).toBe('invited');
    expect(llm.calls).toBe(1);
    const saved = (await db.projects.findOne({ _id: project._id }))!.question_set!;
    expect(saved.generated_at!.getTime()).toBeGreaterThanOrEqual(expiresAt);
    await record(interview, 'interview-waited-for-questions-sent');
  });

  it('fails the invitation, without an email, when the model refuses', async () => {
    const project = await newProject();
    const llm = new CountingModel(new UpstreamError('The model declined: cannot help', 'openai', false, { code: 'refusal' }));
    const email = new ScriptedEmail(deps.email, () => 'ok');
    const interview = await newInterview(project);
    const { results, stored } = await run([interview], { llm, email });
    expect(llm.calls).toBe(1);
    expect(email.calls).toBe(0);
    expect(results[0].status).toBe('failed');
    expect(stored[0]).toMatchObject({
      status: 'failed',
      error: 'The interview questions could not be prepared: The language model refused the request (refusal)',
      email: { status: 'failed', error: 'Not sent: the interview questions could not be prepared' },
    });
    // The claim was given back, so a later invitation can generate.
    expect((await db.projects.findOne({ _id: project._id }))!.question_set ?? null).toBeNull();
    await record(interview, 'interview-questions-refused');
  });

  it('retries a failing email provider, then marks the email failed with the last error', async () => {
    const email = new ScriptedEmail(deps.email, () => 'outage');
    const interview = await newInterview(await newProject());
    const { results, stored } = await run([interview], { email });
    expect(email.calls).toBe(6);
    expect(results[0]).toMatchObject({
      status: 'failed',
      error: 'The invitation email could not be sent: The email provider was unavailable (HTTP 503)',
    });
    expect(stored[0]).toMatchObject({
      status: 'failed',
      email: { status: 'failed', provider: 'scripted', error: 'The email provider was unavailable (HTTP 503)', sent_at: null },
    });
    await record(interview, 'interview-email-outage-failed');
  });

  it('sends after a passing outage and clears the error', async () => {
    const email = new ScriptedEmail(deps.email, (n) => (n < 3 ? 'outage' : 'ok'));
    const { stored } = await run([await newInterview(await newProject())], { email });
    expect(email.calls).toBe(3);
    expect(stored[0]).toMatchObject({ status: 'invited', email: { status: 'sent', error: null } });
  });

  it("does not retry the provider's final refusal", async () => {
    const email = new ScriptedEmail(deps.email, () => 'refuse');
    const interview = await newInterview(await newProject());
    const { stored } = await run([interview], { email });
    expect(email.calls).toBe(1);
    expect(stored[0]).toMatchObject({
      status: 'failed',
      email: { status: 'failed', error: 'The email provider refused the request (HTTP 400)' },
    });
    await record(interview, 'interview-email-refused');
  });

  it("announces an invitation whose email's step could not: sent once, then announced by the workflow", async () => {
    // The email's local activity announces and reads the deadlines itself; its announcement fails here once.
    const announced: string[] = [];
    let failures = 1;
    const announce: Announce = async (workspaceId, ...events) => {
      if (failures-- > 0) throw new Error('the webhook endpoints could not be read');
      announced.push(...events.map((h) => h.type));
      return events.map(() => null);
    };
    const email = new ScriptedEmail(deps.email, () => 'ok');
    const { stores } = buildActivityDeps(
      testConfig({ EMAIL_FROM: 'interviews@hiring.test' }),
      { db, client: env.client, logger },
      { clock, logger, announce },
    );
    const { results, stored } = await run([await newInterview(await newProject())], { email, stores });
    expect(email.calls).toBe(1);
    expect(announced).toEqual(['interview.invited']);
    expect(results[0].status).toBe('invited');
    expect(stored[0]).toMatchObject({ status: 'invited', email: { status: 'sent' }, events: ['interview.invited/once'] });
  });

  it('never emails a candidate twice when the activity is retried or the invitation runs again', async () => {
    const interview = await newInterview(await newProject());
    // The first send reaches the provider but its answer is lost: Temporal retries the activity.
    const email = new ScriptedEmail(deps.email, (n) => (n === 1 ? 'lost-response' : 'ok'));
    const { stored } = await run([interview], { email });
    expect(email.calls).toBe(2);
    expect(await db.emailLog.countDocuments({ idempotency_key: interview._id })).toBe(1);
    expect(stored[0].email.status).toBe('sent');

    // Running the invitation again (an operator's reset) finds the recorded send and does not call the provider.
    await run([interview], { email }, [`${interview.workflow_id}-again`]);
    expect(email.calls).toBe(2);
    expect(await db.emailLog.countDocuments({ idempotency_key: interview._id })).toBe(1);
  });
});
