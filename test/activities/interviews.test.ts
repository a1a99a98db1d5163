import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import type { InvitationDelivery } from '../../activities/interview-follow-up';
import type { InterviewStanding } from '../../activities/interview-standing';
import type { ActivityDeps } from '../../activities/deps';
import { buildActivityDeps } from '../../composition/activity-deps';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import type { EmailMessage, EmailProvider, EmailResult } from '../../providers/email/port';
import { OfflineLanguageModel } from '../../providers/llm/offline';
import { upstreamFailure } from '../../shared/errors';
import type { Announce } from '../../infra/webhooks/events';
import { NotAnnouncedError } from '../../stores/resource-store';
import type { JobBrief, Question } from '../../shared/jobs/schema';
import type { InterviewStage } from '../../shared/interviews/transitions';
import { interviewDoc, projectDoc, workspaceDoc } from '../helpers/interview-doc';
import { testConfig, uniqueName } from '../helpers/stack';

/**
 * The invitation activities on their own, as the SDK's MockActivityEnvironment runs them (no worker, no
 * workflow), on the real database: questions are fixed once, an email is sent once however often the
 * activity runs, and a provider's answer decides between failed and retried.
 */
describe('invitation activities', () => {
  let db: Database;
  let acts: ReturnType<typeof createActivities>;
  /** The invitation's email step, as the workflow runs it: sent or failed. */
  const deliver = async (env: MockActivityEnvironment, interviewId: string) =>
    ((await env.run(acts.deliverInvitation, interviewId)) as InvitationDelivery).delivery;
  const sent: EmailMessage[] = [];
  let answer: (m: EmailMessage) => Promise<EmailResult> = async (m) => ({ sent: true, messageId: `msg-${m.idempotencyKey}` });
  const email: EmailProvider = {
    name: 'counting',
    async send(m) {
      sent.push(m);
      return answer(m);
    },
  };
  let generations = 0;
  const offline = new OfflineLanguageModel();
  const llm = Object.assign(Object.create(offline) as OfflineLanguageModel, {
    async generateQuestions(job: JobBrief, count: number): Promise<Question[]> {
      generations++;
      return offline.generateQuestions(job, count);
    },
  });

  /** What the recording announcer was given, and whether it fails: the stores of `withAnnouncer` announce to it. */
  const announced: Array<{ id: string | undefined; type: string }> = [];
  let announcing: 'ok' | 'fail' = 'ok';
  const announce: Announce = async (_workspaceId, ...events) => {
    if (announcing === 'fail') throw new Error('the webhook endpoints could not be read');
    for (const e of events) announced.push({ id: (await e.about())?.resourceId, type: e.type });
    return events.map(() => null);
  };
  let withAnnouncer: ActivityDeps;
  let followActs: ReturnType<typeof createActivities>;

  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('iacts'));
    const logger = createLogger('silent');
    const config = testConfig({ EMAIL_FROM: 'interviews@hiring.test' });
    // No Temporal here: these activities neither report calls nor start workflows.
    const deps: ActivityDeps = buildActivityDeps(config, { db, client: null as never, logger }, { email, llm, logger });
    acts = createActivities(deps);
    withAnnouncer = buildActivityDeps(config, { db, client: null as never, logger }, { email, llm, logger, announce });
    followActs = createActivities(withAnnouncer);
    await db.workspaces.insertOne(workspaceDoc('ws_acts'));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });
  beforeEach(() => {
    answer = async (m) => ({ sent: true, messageId: `msg-${m.idempotencyKey}` });
  });

  async function newInvitation(customQuestions: Question[] | null = null) {
    const project = projectDoc(uniqueName('prj'), 'ws_acts');
    await db.projects.insertOne(project);
    const interview = interviewDoc(uniqueName('int'), project, customQuestions);
    await db.interviews.insertOne(interview);
    return { project, interview };
  }

  it("generates the project's questions once, however many of its invitations prepare", async () => {
    const { project, interview } = await newInvitation();
    const other = interviewDoc(uniqueName('int'), project);
    await db.interviews.insertOne(other);
    const env = new MockActivityEnvironment();
    const before = generations;
    const counts = [await env.run(acts.prepareInterview, interview._id), await env.run(acts.prepareInterview, other._id)];
    expect(generations - before).toBe(1);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts).toEqual([counts[0], counts[0]]);
    const stored = await db.projects.findOne({ _id: project._id });
    expect(stored?.question_set).toMatchObject({ provider: 'offline', questions: expect.any(Array) });
    expect((await db.interviews.findOne({ _id: other._id }))?.questions).toEqual(stored?.question_set?.questions);
  });

  it("fixes the caller's own questions without asking the model", async () => {
    const custom: Question[] = [{ question: 'Why this team?', type: 'video', time_limit_seconds: 120 }];
    const { interview } = await newInvitation(custom);
    const before = generations;
    expect(await new MockActivityEnvironment().run(acts.prepareInterview, interview._id)).toBe(1);
    expect(generations).toBe(before);
    expect((await db.interviews.findOne({ _id: interview._id }))?.questions).toEqual(custom);
  });

  it('sends the link once, from the company, and running it again sends nothing', async () => {
    const { interview } = await newInvitation();
    const env = new MockActivityEnvironment();
    expect(await deliver(env, interview._id)).toBe('sent');
    expect(await deliver(env, interview._id)).toBe('sent');
    const mine = sent.filter((m) => m.idempotencyKey === interview._id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      from: { email: 'interviews@hiring.test', name: 'Umbrella Corp' },
      to: { email: interview.candidate.email },
    });
    expect(mine[0].text).toContain(`https://hiring.test/interview/${interview.token}`);
    expect(await db.interviews.findOne({ _id: interview._id })).toMatchObject({
      status: 'invited',
      email: { status: 'sent', provider: 'counting', message_id: `msg-${interview._id}` },
    });
  });

  it("marks the invitation failed on the provider's final refusal", async () => {
    const { interview } = await newInvitation();
    answer = async () => ({
      sent: false,
      error: 'The email provider refused the request (HTTP 400)',
      detail: 'SendGrid answered 400: invalid to address',
    });
    expect(await deliver(new MockActivityEnvironment(), interview._id)).toBe('failed');
    expect(await db.interviews.findOne({ _id: interview._id })).toMatchObject({
      status: 'failed',
      email: { status: 'failed', error: 'The email provider refused the request (HTTP 400)' },
    });
  });

  it('keeps the email pending, with the error, when the provider fails in a way worth retrying', async () => {
    const { interview } = await newInvitation();
    answer = async () => {
      throw upstreamFailure('sendgrid', 503, 'SendGrid answered 503');
    };
    await expect(new MockActivityEnvironment().run(acts.deliverInvitation, interview._id)).rejects.toMatchObject({
      message: 'The email provider was unavailable (HTTP 503)',
      nonRetryable: false,
      details: ['SendGrid answered 503'],
    });
    expect(await db.interviews.findOne({ _id: interview._id })).toMatchObject({
      status: 'queued',
      email: { status: 'pending', provider: 'counting', error: 'The email provider was unavailable (HTTP 503)' },
    });
  });

  it("announces the candidate's start when the workflow follows the interview, once, after the page's announcement failed", async () => {
    const { interview } = await newInvitation();
    const env = new MockActivityEnvironment();
    expect(await deliver(env, interview._id)).toBe('sent');
    // The page's start: written, but its announcement fails (the endpoints could not be read).
    announcing = 'fail';
    const invited = (await db.interviews.findOne({ _id: interview._id }))!;
    await expect(withAnnouncer.stores.interviews.start(invited, new Date(), 'v1')).rejects.toBeInstanceOf(NotAnnouncedError);
    announcing = 'ok';
    const started = (await db.interviews.findOne({ _id: interview._id }))!;
    expect(started).toMatchObject({ status: 'started', events: ['interview.invited/once', 'interview.started/once'] });
    // The workflow, signalled, follows it from where it shows it: the start's repeat is announced, nothing written.
    const standing = (await env.run(followActs.followInterview, interview._id, 'invited' as InterviewStage)) as InterviewStanding;
    expect(standing.status).toBe('started');
    expect(announced.filter((a) => a.id === interview._id).map((a) => a.type)).toEqual(['interview.started']);
    expect((await db.interviews.findOne({ _id: interview._id }))?.updated_at).toEqual(started.updated_at);
    // Shown started, it has nothing more to announce.
    await env.run(followActs.followInterview, interview._id, 'started' as InterviewStage);
    expect(announced.filter((a) => a.id === interview._id)).toHaveLength(1);
  });
});
