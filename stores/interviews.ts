import type { Database } from '../infra/database';
import { isDuplicateKey } from '../infra/duplicate-key';
import { interviewList } from '../infra/lists/interviews';
import { answerId, nextQuestion, readAnswers } from '../infra/records/interview-answers';
import { expiresAtOf, type InterviewDoc, type StoredAnswer, type StoredAssessment } from '../infra/records/interviews';
import type { Announce } from '../infra/webhooks/events';
import { interviewAnnouncement } from '../infra/webhooks/resources';
import type { InterviewStatus } from '../shared/interviews/schema';
import { interviewMayMove } from '../shared/interviews/transitions';
import type { InterviewEventType } from '../shared/webhooks/schema';
import { interviewMetering } from './metering';
import { resourceStore, type ResourceEvent, type ResourceStore } from './resource-store';

/**
 * The interviews' one door (stores/resource-store.ts): every write of an interview goes through it, the
 * candidate's own steps (start, answers, finish) among them.
 */
export interface InterviewStore extends ResourceStore<InterviewDoc, InterviewStatus, InterviewEventType> {
  /**
   * Invited → started, with the candidate's consent to recording and assessment (`textVersion`: the notice
   * agreed to). False when the interview is in any other state (a second Start changes nothing); an interview
   * started before consent was asked for gets it recorded, and stays as it is.
   */
  start(interview: InterviewDoc, now: Date, textVersion: string): Promise<boolean>;
  /**
   * Saves an answer once: false when the question already had one (a second submit, another tab). The
   * interview's copy of its answers is then rewritten whole from their documents, so a copy that lost a race
   * is mended by the next save.
   */
  saveAnswer(interview: InterviewDoc, answer: StoredAnswer): Promise<boolean>;
  /** Started → completed, once every question has an answer. False when it is not (yet) the time. */
  complete(interview: InterviewDoc, now: Date): Promise<boolean>;
}

/** The interviews' lists, to read: a workspace's pages and change feed. */
export function interviewPages(db: Database): Pick<InterviewStore, 'page'> {
  const list = interviewList(db);
  return { page: (ws, q) => list.page(ws, q) };
}

/** An interview's event: once each, but an expiry once per deadline (a resend may open the link again). */
export function interviewEvent(type: InterviewEventType, interview: InterviewDoc): ResourceEvent<InterviewEventType> {
  return { type, occurrence: type === 'interview.expired' ? expiresAtOf(interview).getTime() : 'once' };
}

/** What GET /interviews/:id shows from the finish until the interview's workflow stores the assessment. */
const PENDING_ASSESSMENT: StoredAssessment = {
  status: 'pending',
  provider: null,
  questions: [],
  overall: null,
  error: null,
  assessed_at: null,
};

export function interviewStore({
  db,
  announce,
  publicBaseUrl,
}: {
  db: Database;
  announce?: Announce;
  publicBaseUrl: string;
}): InterviewStore {
  const store = resourceStore<InterviewDoc, InterviewStatus, InterviewEventType>({
    name: 'interview',
    collection: db.interviews,
    list: interviewList(db),
    mayMove: interviewMayMove,
    announcement: (interview, key) => interviewAnnouncement(interview, publicBaseUrl, key),
    announce,
    count: interviewMetering,
  });
  const copyAnswers = async (interview: InterviewDoc) => {
    await store.change(interview, { set: { answers: await readAnswers(db, interview) } });
  };
  return {
    ...store,

    async start(interview, now, textVersion) {
      const consent = { given_at: now, text_version: textVersion };
      if (interview.status === 'started' && !interview.consent) await store.change(interview, { set: { consent } });
      if (interview.status !== 'invited') return false;
      await store.change(interview, {
        to: 'started',
        events: [interviewEvent('interview.started', interview)],
        set: { started_at: now, answers: interview.answers ?? [], consent },
      });
      return true;
    },

    async saveAnswer(interview, answer) {
      try {
        await db.interviewAnswers.insertOne({ _id: answerId(interview._id, answer.index), interview_id: interview._id, ...answer });
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
      await copyAnswers(interview);
      return true;
    },

    async complete(interview, now) {
      if (interview.status !== 'started' || (await nextQuestion(db, interview)) !== null) return false;
      // `interview.completed` is recorded with the assessment (activities/interview-assessment.ts), so the
      // receiver has the whole result in one event.
      await store.change(interview, {
        to: 'completed',
        set: { completed_at: now, answers: await readAnswers(db, interview), assessment: PENDING_ASSESSMENT },
      });
      return true;
    },
  };
}
