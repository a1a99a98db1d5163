import { Context } from '@temporalio/activity';
import { Worker } from '@temporalio/worker';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import type { ActivityDeps } from '../../activities/deps';
import { buildActivityDeps } from '../../composition/activity-deps';
import { interviewNotifier } from '../../composition/interview-signals';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import { storeRecording } from '../../infra/recordings';
import { serveQuestion } from '../../infra/records/interview-answers';
import { interviewStore } from '../../stores/interviews';
import type { InterviewDoc } from '../../infra/records/interviews';
import type { Recording, Transcriber } from '../../providers/transcription/port';
import type { Question } from '../../shared/jobs/schema';
import { interviewProgressQuery, interviewWorkflow, type InterviewProgress } from '../../workflows/interviews';
import { interviewDoc, projectDoc, workspaceDoc } from '../helpers/interview-doc';
import { jobDetails } from '../helpers/job';
import { recordHistory } from '../helpers/histories';
import { createTimeSkippingEnv } from '../helpers/time-skipping';
import { testConfig, uniqueName, workflowBundle } from '../helpers/stack';

const DAY = 86_400_000;
const job = jobDetails({
  title: 'Platform Engineer',
  skills_required: ['Kubernetes', 'Terraform', 'Go'],
  skills_good_to_have: ['Prometheus', 'Helm', 'AWS'],
});
const QUESTIONS: Question[] = [
  { question: 'How do you run Kubernetes upgrades?', type: 'text', time_limit_seconds: 300 },
  { question: 'Tell us about a Terraform module you wrote.', type: 'audio', time_limit_seconds: 120 },
  { question: 'What would you monitor first?', type: 'text', time_limit_seconds: 300 },
];
/** WebM's leading bytes (an EBML header), then filler: what the recording store takes as audio/webm. */
const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(40_000, 7)]);

/** A transcriber (the port) that hears the same answer in every recording, counting what it was given. */
class FixedTranscriber implements Transcriber {
  readonly name = 'fixed';
  heard: Recording[] = [];
  async transcribe(recording: Recording): Promise<string> {
    this.heard.push(recording);
    return 'I wrote a Terraform module for our AWS accounts and reviewed it with the team.';
  }
}

describe('interview deadlines and assessment on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  let db: Database;
  let deps: ActivityDeps;
  const logger = createLogger('silent');
  const clock = () => new Date(Context.current().info.currentAttemptScheduledTimestampMs);

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('idl'));
    deps = buildActivityDeps(testConfig({ EMAIL_FROM: 'interviews@hiring.test' }), { db, client: env.client, logger }, { clock, logger });
    await db.workspaces.insertMany([
      workspaceDoc('ws_reminding'),
      { ...workspaceDoc('ws_quiet'), settings: { interview_reminders: false } },
    ]);
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
    await env?.teardown();
  });

  /** An invitation made now by the test server's clock, its link open for `days`. */
  async function newInterview(workspaceId: string, days: number): Promise<InterviewDoc> {
    const project = projectDoc(uniqueName('prj'), workspaceId, { job });
    await db.projects.insertOne(project);
    const now = new Date(await env.currentTimeMs());
    const interview: InterviewDoc = {
      ...interviewDoc(uniqueName('int'), project, QUESTIONS),
      created_at: now,
      updated_at: now,
      expires_at: new Date(now.getTime() + days * DAY),
    };
    await db.interviews.insertOne(interview);
    return interview;
  }
  const stored = async (i: InterviewDoc) => (await db.interviews.findOne({ _id: i._id }))!;
  const emailsOf = (i: InterviewDoc) => db.emailLog.find({ idempotency_key: { $regex: `^${i._id}` } }).toArray();

  /**
   * Runs the workflow on a worker while `script` plays the candidate and the clock. Time moves only by
   * env.sleep (bounded skips) and waits on the workflow's progress, never by result(), so each step is exact.
   */
  async function follow(
    interview: InterviewDoc,
    script: (step: { handle: WorkflowHandle<typeof interviewWorkflow>; taskQueue: string }) => Promise<void>,
    overrides: Partial<ActivityDeps> = {},
  ): Promise<void> {
    const taskQueue = uniqueName('tq');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ ...deps, ...overrides }),
    });
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(interviewWorkflow, {
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

  it("reminds a candidate who has not started at half the link's time, then expires the link", async () => {
    const interview = await newInterview('ws_reminding', 4);
    await follow(interview, async ({ handle }) => {
      await env.sleep(2 * DAY - 60_000);
      expect((await emailsOf(interview)).map((m) => m.subject)).toEqual(['Your interview for Platform Engineer at Umbrella Corp']);
      await env.sleep(2 * 60_000);
      await progressOf(handle, () => true);
      const reminder = (await emailsOf(interview)).find((m) => m.idempotency_key === `${interview._id}/reminder`);
      expect(reminder?.subject).toBe('Reminder: your interview for Platform Engineer at Umbrella Corp');
      expect((await stored(interview)).reminder).toEqual({ at: expect.any(Date), error: null });
      await env.sleep(2 * DAY);
      expect(await closed(handle)).toMatchObject({ status: 'expired' });
    });
    expect(await stored(interview)).toMatchObject({ status: 'expired' });
    expect(await emailsOf(interview)).toHaveLength(2);
    await recordHistory(env.client, interview.workflow_id, 'interview-reminded-then-expired');
  });

  it('sends no reminder when the workspace turned reminders off', async () => {
    const interview = await newInterview('ws_quiet', 2);
    await follow(interview, async ({ handle }) => {
      await env.sleep(2 * DAY + 60_000);
      expect(await closed(handle)).toMatchObject({ status: 'expired' });
    });
    expect(await emailsOf(interview)).toHaveLength(1);
    expect(await stored(interview)).toMatchObject({ status: 'expired' });
  });

  it('sends no reminder to a candidate who started, and assesses the interview once they finish', async () => {
    const transcriber = new FixedTranscriber();
    const interview = await newInterview('ws_reminding', 4);
    await follow(
      interview,
      async ({ handle, taskQueue }) => {
        const tell = interviewNotifier(env.client, taskQueue);
        const now = async () => new Date(await env.currentTimeMs());
        // The candidate does what the interview page does: start, answer each question, finish.
        await interviewStore(deps).start(await stored(interview), await now());
        await tell(interview);
        await progressOf(handle, (p) => p.status === 'started');
        await env.sleep(3 * DAY);
        const started = await stored(interview);
        const typed = (index: number, text: string) => ({ index, type: 'text' as const, text, duration_seconds: null, timed_out: false });
        await serveQuestion(db, interview._id, 0, await now());
        await interviewStore(deps).saveAnswer(started, {
          ...typed(0, 'I drain nodes one pool at a time, upgrade Kubernetes with Terraform, and watch Prometheus alerts.'),
          answered_at: await now(),
        });
        await serveQuestion(db, interview._id, 1, await now());
        const recording = await storeRecording(
          db,
          (async function* () {
            yield WEBM;
          })(),
          {
            interviewId: interview._id,
            index: 1,
            type: 'audio/webm',
            maxBytes: 1_000_000,
          },
        );
        const audio = { id: recording._id, type: recording.type, size: recording.size };
        await interviewStore(deps).saveAnswer(started, {
          index: 1,
          type: 'audio',
          text: null,
          recording: audio,
          duration_seconds: 40,
          answered_at: await now(),
          timed_out: false,
        });
        await serveQuestion(db, interview._id, 2, await now());
        await interviewStore(deps).saveAnswer(started, {
          index: 2,
          type: 'text',
          text: null,
          duration_seconds: null,
          answered_at: await now(),
          timed_out: true,
        });
        expect(await interviewStore(deps).complete(await stored(interview), await now())).toBe(true);
        expect((await stored(interview)).assessment).toMatchObject({ status: 'pending' });
        await tell(interview);
        expect(await closed(handle)).toMatchObject({ status: 'completed' });
      },
      { transcriber },
    );
    expect(await emailsOf(interview)).toHaveLength(1);
    expect(transcriber.heard).toEqual([{ bytes: WEBM, type: 'audio/webm' }]);
    const { assessment } = await stored(interview);
    expect(assessment).toMatchObject({ status: 'completed', provider: 'offline', error: null, assessed_at: expect.any(Date) });
    expect(assessment!.questions).toEqual([
      expect.objectContaining({ index: 0, status: 'assessed', skills: ['Kubernetes', 'Terraform', 'Prometheus'], transcript: null }),
      expect.objectContaining({
        index: 1,
        status: 'assessed',
        skills: ['Terraform', 'AWS'],
        transcript: expect.stringContaining('Terraform module'),
      }),
      expect.objectContaining({ index: 2, status: 'not_assessed', score: null, reason: 'The answer arrived after the time limit' }),
    ]);
    expect(assessment!.questions[0].score).toBeGreaterThan(assessment!.questions[1].score!);
    expect(assessment!.overall).toMatchObject({
      score: expect.any(Number),
      recommendation: expect.stringMatching(/advance|consider|reject/),
    });
    await recordHistory(env.client, interview.workflow_id, 'interview-started-completed-assessed');
  });

  it('leaves a recording unassessed, with the reason, when there is no transcriber', async () => {
    const interview = await newInterview('ws_reminding', 4);
    await follow(
      interview,
      async ({ handle, taskQueue }) => {
        const now = new Date(await env.currentTimeMs());
        await interviewStore(deps).start(await stored(interview), now);
        const started = await stored(interview);
        await interviewStore(deps).saveAnswer(started, {
          index: 0,
          type: 'text',
          text: 'Kubernetes, carefully.',
          duration_seconds: null,
          answered_at: now,
          timed_out: false,
        });
        await interviewStore(deps).saveAnswer(started, {
          index: 1,
          type: 'audio',
          text: null,
          recording: { id: 'rec_x', type: 'audio/webm', size: 10 },
          duration_seconds: 5,
          answered_at: now,
          timed_out: false,
        });
        await interviewStore(deps).saveAnswer(started, {
          index: 2,
          type: 'text',
          text: 'Latency.',
          duration_seconds: null,
          answered_at: now,
          timed_out: false,
        });
        await interviewStore(deps).complete(await stored(interview), now);
        await interviewNotifier(env.client, taskQueue)(interview);
        expect(await closed(handle)).toMatchObject({ status: 'completed' });
      },
      { transcriber: null },
    );
    const { assessment } = await stored(interview);
    expect(assessment!.questions.map((q) => [q.status, q.reason])).toEqual([
      ['assessed', null],
      ['not_assessed', 'The recording was not transcribed: no transcription service is configured'],
      ['assessed', null],
    ]);
  });

  it('opens an expired link again on a resend, in a new run, and emails it once', async () => {
    const interview = await newInterview('ws_quiet', 1);
    await follow(interview, async ({ handle, taskQueue }) => {
      await env.sleep(DAY + 60_000);
      expect(await closed(handle)).toMatchObject({ status: 'expired' });
      // What POST /interviews/:id/resend records before it tells the workflow (api/interviews/resend.ts).
      const now = new Date(await env.currentTimeMs());
      await db.interviews.updateOne(
        { _id: interview._id },
        {
          $set: {
            status: 'invited',
            expires_at: new Date(now.getTime() + 14 * DAY),
            resend: { requested_at: now, sent_at: null, error: null },
          },
        },
      );
      await interviewNotifier(env.client, taskQueue)(interview);
      const again = env.client.workflow.getHandle<typeof interviewWorkflow>(interview.workflow_id);
      await progressOf(again, (p) => p.status === 'invited');
      for (let tries = 0; tries < 100 && !(await stored(interview)).resend?.sent_at; tries++) await new Promise((r) => setTimeout(r, 50));
      await recordHistory(env.client, interview.workflow_id, 'interview-resent-after-expiry');
      await again.terminate('the test is over');
    });
    const subjects = (await emailsOf(interview)).map((m) => m.subject).sort();
    expect(subjects).toEqual([
      'Your interview for Platform Engineer at Umbrella Corp',
      'Your interview link for Platform Engineer at Umbrella Corp',
    ]);
    expect(await stored(interview)).toMatchObject({ status: 'invited', resend: { sent_at: expect.any(Date), error: null } });
  });
});
