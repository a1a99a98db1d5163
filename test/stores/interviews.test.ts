import { CONSENT_TEXT_VERSION } from '../../shared/interviews/consent';
import { connectDatabase, type Database } from '../../infra/database';
import type { Announce } from '../../infra/webhooks/events';
import type { InterviewDoc } from '../../infra/documents/interviews';
import { interviewEvent, interviewStore, type InterviewStore } from '../../stores/interviews';
import { InvalidTransitionError, NotAnnouncedError } from '../../stores/resource-store';
import { interviewDoc, projectDoc } from '../helpers/interview-doc';
import { uniqueName } from '../helpers/stack';

const QUESTIONS = [{ question: 'Why this job?', type: 'text' as const, time_limit_seconds: 300 }];

/**
 * The interview store on the real database: every change of an interview, the candidate's own steps among
 * them, goes through it, checked against the transition table and announced from the write that made it.
 */
describe('interview store', () => {
  let db: Database;
  let interviews: InterviewStore;
  const announced: Array<{ type: string; status: unknown }> = [];
  let failAnnouncements = false;
  const announce: Announce = async (_workspaceId, ...events) => {
    if (failAnnouncements) throw new Error('Temporal is unreachable');
    for (const e of events) announced.push({ type: e.type, status: ((await e.about())?.view(1, e.type) as { status?: string })?.status });
    return events.map(() => null);
  };

  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('istore'));
    interviews = interviewStore({ db, announce, publicBaseUrl: 'https://hiring.test' });
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  /** An invitation whose email went out, with one question. */
  async function invited(): Promise<InterviewDoc> {
    const project = projectDoc(uniqueName('prj'), uniqueName('ws'));
    const queued = { ...interviewDoc(uniqueName('int'), project), questions: QUESTIONS };
    expect(await interviews.create([queued])).toEqual(['written']);
    const sent = await interviews.change(queued, { to: 'invited', events: [interviewEvent('interview.invited', queued)] });
    return sent!;
  }

  it("starts, saves the answer once and completes the candidate's interview, announcing its start from that write", async () => {
    const interview = await invited();
    announced.length = 0;
    expect(await interviews.start(interview, new Date(), CONSENT_TEXT_VERSION)).toBe(true);
    expect(announced).toEqual([{ type: 'interview.started', status: 'started' }]);
    // A second Start changes nothing.
    expect(await interviews.start((await db.interviews.findOne({ _id: interview._id }))!, new Date(), CONSENT_TEXT_VERSION)).toBe(false);
    const started = (await db.interviews.findOne({ _id: interview._id }))!;
    const answer = {
      index: 0,
      type: 'text' as const,
      text: 'I like it.',
      duration_seconds: null,
      answered_at: new Date(),
      timed_out: false,
    };
    expect(await interviews.saveAnswer(started, answer)).toBe(true);
    expect(await interviews.saveAnswer(started, { ...answer, text: 'Another tab' })).toBe(false);
    expect(await interviews.complete((await db.interviews.findOne({ _id: interview._id }))!, new Date())).toBe(true);
    const done = (await db.interviews.findOne({ _id: interview._id }))!;
    expect(done).toMatchObject({ status: 'completed', answers: [{ index: 0, text: 'I like it.' }], assessment: { status: 'pending' } });
    // `interview.completed` waits for the assessment's write, so its event carries the whole result.
    expect(done.events).toEqual(['interview.invited/once', 'interview.started/once']);
    expect(announced.map((a) => a.type)).toEqual(['interview.started']);
  });

  it('refuses a move the transition table does not allow, and leaves the interview as it was', async () => {
    const interview = await invited();
    await expect(interviews.change(interview, { to: 'completed' })).rejects.toBeInstanceOf(InvalidTransitionError);
    await expect(interviews.change(interview, { to: 'queued' })).rejects.toBeInstanceOf(InvalidTransitionError);
    expect((await db.interviews.findOne({ _id: interview._id }))?.status).toBe('invited');
  });

  it('keeps a change whose announcement failed, and says so with the item; its repeat writes nothing and announces it', async () => {
    const interview = await invited();
    failAnnouncements = true;
    try {
      const refused = await interviews
        .change(interview, { to: 'expired', events: [interviewEvent('interview.expired', interview)] })
        .catch((e) => e);
      expect(refused).toBeInstanceOf(NotAnnouncedError);
      expect((refused as NotAnnouncedError).item).toMatchObject({ _id: interview._id, status: 'expired' });
    } finally {
      failAnnouncements = false;
    }
    announced.length = 0;
    const now = (await db.interviews.findOne({ _id: interview._id }))!;
    // The step's repeat (a retried activity): found made, so nothing is written, and announced again.
    const repeated = await interviews.change(now, { to: 'expired', events: [interviewEvent('interview.expired', now)] });
    expect(repeated).toBe(now);
    expect((await db.interviews.findOne({ _id: interview._id }))?.updated_at).toEqual(now.updated_at);
    expect(announced).toEqual([{ type: 'interview.expired', status: 'expired' }]);
  });
});
