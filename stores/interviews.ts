import type { Database } from '../infra/database';
import { claim, release } from '../infra/claims';
import { isDuplicateKey } from '../infra/duplicate-key';
import { interviewList } from '../infra/lists/interviews';
import {
  answerId,
  forgetAnswers,
  addTurn,
  reviseTurn,
  turnsOf,
  interviewOfToken,
  keepTranscript,
  nextQuestion,
  readAnswers,
  servedAt,
  serveQuestion,
  transcriptsOf,
} from './interview-answers';
import {
  expiresAtOf,
  type InterviewDoc,
  type StoredAnswer,
  type StoredAssessment,
  type StoredReview,
  type StoredTurn,
} from '../infra/documents/interviews';
import type { Announce } from '../infra/webhooks/events';
import { interviewAnnouncement } from '../infra/webhooks/resources';
import { reviewCount } from '../infra/views/interviews';
import { REVIEW_HISTORY_KEPT } from '../shared/interviews/review';
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
   * Saves an answer once: false when the question already had one (a second submit, another tab), or when the
   * candidate was erased while it was sent (nothing of it is kept). The
   * interview's copy of its answers is then rewritten whole from their documents, so a copy that lost a race
   * is mended by the next save.
   */
  saveAnswer(interview: InterviewDoc, answer: StoredAnswer): Promise<boolean>;
  /**
   * The candidate asks for a person, not an AI, to assess their answers: recorded once, before they finish.
   * False when the interview is finished, or declined already.
   */
  declineAiAssessment(interview: InterviewDoc, now: Date): Promise<boolean>;
  /**
   * Points a live interview at its conversation's recording as it stands; false when the candidate was erased
   * meanwhile (then the caller removes the recording, which nothing may bring back).
   */
  keepConversationRecording(interviewId: string, recording: { id: string; size: number; seconds: number }): Promise<boolean>;
  /** A live interview's candidate switched to written answers: the rest of the questions are answered on the page. */
  switchToText(interview: InterviewDoc, now: Date): Promise<boolean>;
  /** Started → completed, once every question has an answer. False when it is not (yet) the time. */
  complete(interview: InterviewDoc, now: Date): Promise<boolean>;
  get(id: string): Promise<InterviewDoc | null>;
  /** The workspace's interview, or null: another workspace's is as missing as an unknown one. */
  owned(workspaceId: string, id: string): Promise<InterviewDoc | null>;
  /** The interview of a link's token: one exact `_id` read, then the whole token compared. */
  ofToken(token: string): Promise<InterviewDoc | null>;
  /** The first question without an answer, or null when every one has one. */
  nextQuestion(interview: InterviewDoc): Promise<number | null>;
  /** When the question was first served: now, unless it was served before. */
  serveQuestion(interviewId: string, index: number, now: Date): Promise<Date>;
  /** When the question was first served, or null if it never was. */
  servedAt(interviewId: string, index: number): Promise<Date | null>;
  /** Keeps a recorded answer's transcript with the answer; false when the answer is gone (an erasure). */
  keepTranscript(interviewId: string, index: number, text: string): Promise<boolean>;
  /** The transcripts kept for the interview's recorded answers, by question index. */
  transcripts(interview: InterviewDoc): Promise<Record<string, string>>;
  /** Forgets the interview's saved answers and live turns (an erasure, which blanks the interview's own copy). */
  forgetAnswers(interview: InterviewDoc): Promise<void>;
  /**
   * Keeps a live turn of question `index` after the `after` kept before it: its place, or null when the
   * question holds its most turns or the candidate was erased meanwhile (then the turn is not kept).
   */
  addTurn(interviewId: string, index: number, turn: StoredTurn, after: number): Promise<number | null>;
  /** Revises kept turn `seq` of question `index`: to what was heard of it (a cut-in), or to its whole transcript. */
  reviseTurn(interviewId: string, index: number, seq: number, to: Pick<StoredTurn, 'text' | 'ended_at'>): Promise<void>;
  /** The live turns kept for question `index`, in order. */
  turns(interviewId: string, index: number): Promise<StoredTurn[]>;
  /**
   * The candidate ids of the workspace's interviews that ended, not erased, and last changed before `cutoff`
   * (the daily retention sweep: MongoDB's index; FerretDB reads through, once a day).
   */
  candidatesEndedBefore(workspaceId: string, cutoff: Date): Promise<string[]>;
  /**
   * Claims the interview's resend for `holder` until `until` (the cooldown): false when another resend holds
   * it, whichever API process took it.
   */
  claimResend(interviewId: string, holder: string, until: Date, now: Date): Promise<boolean>;
  /**
   * Records a person's review: it replaces the one in force, which moves to the history, with its
   * `interview.reviewed`. Reviews of one interview are recorded one at a time (a claim, as FerretDB's updates
   * are not isolated): null when another is being recorded at this moment.
   */
  review(interview: InterviewDoc, review: StoredReview): Promise<InterviewDoc | null>;
  /** Gives a resend's claim back (the resend was taken back, so its retry is not refused as too soon). */
  releaseResend(interviewId: string, holder: string): Promise<void>;
}

const ENDED: InterviewStatus[] = ['completed', 'expired', 'failed'];
/**
 * What an erasure leaves of an interview's fields about the person (operations/erasure.ts), and what the store
 * writes back over a change that lands on an erased interview (stores/resource-store.ts). The decisions stay on
 * record (who decided what, and when); a note speaks of the person.
 */
export function erasedInterview(interview: InterviewDoc): Partial<InterviewDoc> {
  return {
    candidate: { name: '', email: '', phone: null },
    answers: [],
    assessment: null,
    conversation_recording: null,
    ...(interview.review ? { review: { ...interview.review, note: null } } : {}),
    ...(interview.review_history ? { review_history: interview.review_history.map((r) => ({ ...r, note: null })) } : {}),
  };
}
const resendKey = (interviewId: string) => `resend/${interviewId}`;
const reviewKey = (interviewId: string) => `review/${interviewId}`;
/** Long enough for one review's write; a process that dies holding it frees the interview after it. */
const REVIEW_LEASE_MS = 30_000;

/** An interview's event: once each, but an expiry once per deadline (a resend may open the link again). */
export function interviewEvent(type: InterviewEventType, interview: InterviewDoc): ResourceEvent<InterviewEventType> {
  return { type, occurrence: type === 'interview.expired' ? expiresAtOf(interview).getTime() : 'once' };
}

/** What GET /interviews/:id shows from the finish until the interview's workflow stores the assessment. */
const PENDING_ASSESSMENT: StoredAssessment = {
  status: 'pending',
  provider: null,
  assessor: null,
  questions: [],
  overall: null,
  error: null,
  assessed_at: null,
};

export function interviewStore({
  db,
  announce,
  publicBaseUrl,
  partnerChanged,
}: {
  db: Database;
  announce: Announce;
  partnerChanged?: (assessmentId: string) => Promise<void>;
  publicBaseUrl: string;
}): InterviewStore {
  const store = resourceStore<InterviewDoc, InterviewStatus, InterviewEventType>({
    name: 'interview',
    collection: db.interviews,
    list: interviewList(db),
    mayMove: interviewMayMove,
    announcement: (interview, key) => interviewAnnouncement(interview, publicBaseUrl, key),
    announce,
    partnerChanged,
    erasedForm: erasedInterview,
    count: interviewMetering,
  });
  const copyAnswers = async (interview: InterviewDoc) => store.change(interview, { set: { answers: await readAnswers(db, interview) } });
  const get = (id: string) => db.interviews.findOne({ _id: id });
  return {
    ...store,
    get,
    async owned(workspaceId, id) {
      const interview = await get(id);
      return interview?.workspace_id === workspaceId ? interview : null;
    },
    ofToken: (token) => interviewOfToken(db, token),
    nextQuestion: (interview) => nextQuestion(db, interview),
    serveQuestion: (interviewId, index, now) => serveQuestion(db, interviewId, index, now),
    servedAt: (interviewId, index) => servedAt(db, interviewId, index),
    forgetAnswers: (interview) => forgetAnswers(db, interview),
    async addTurn(interviewId, index, turn, after) {
      const seq = await addTurn(db, interviewId, index, turn, after);
      if (seq === null) return null;
      // Erased meanwhile: the erasure took the turns before this one, and this one goes too.
      if ((await get(interviewId))?.erased_at) {
        await db.interviewTurns.deleteOne({ _id: `${interviewId}|${index}|${seq}` });
        return null;
      }
      return seq;
    },
    reviseTurn: (interviewId, index, seq, to) => reviseTurn(db, interviewId, index, seq, to),
    turns: (interviewId, index) => turnsOf(db, interviewId, index),
    keepTranscript: (interviewId, index, text) => keepTranscript(db, interviewId, index, text),
    transcripts: (interview) => transcriptsOf(db, interview),
    claimResend: async (interviewId, holder, until, now) =>
      (await claim(db, resendKey(interviewId), holder, { now, expiresAt: until })) === holder,
    releaseResend: (interviewId, holder) => release(db, resendKey(interviewId), holder),
    async candidatesEndedBefore(workspaceId, cutoff) {
      const old = { workspace_id: workspaceId, erased_at: { $exists: false }, updated_at: { $lt: cutoff } };
      const ended = await db.interviews.find({ ...old, status: { $in: ENDED } }, { projection: { candidate_id: 1 } }).toArray();
      return ended.map((i) => i.candidate_id);
    },

    async review(interview, review) {
      const key = reviewKey(interview._id);
      const lease = new Date(review.reviewed_at.getTime() + REVIEW_LEASE_MS);
      if ((await claim(db, key, review.id, { now: review.reviewed_at, expiresAt: lease })) !== review.id) return null;
      try {
        // Read again under the claim: the review in force now is the one that moves to the history, which
        // keeps the last REVIEW_HISTORY_KEPT; the count keeps them all.
        const now = (await get(interview._id)) ?? interview;
        const history = [...(now.review_history ?? []), ...(now.review ? [now.review] : [])].slice(-REVIEW_HISTORY_KEPT);
        return await store.change(now, {
          events: [{ type: 'interview.reviewed', occurrence: review.id }],
          set: { review, review_history: history, review_count: reviewCount(now) + 1 },
        });
      } finally {
        await release(db, key, review.id).catch(() => undefined);
      }
    },

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
      // Erased meanwhile (or gone): the copy was refused, and the answer goes too, as the erasure took the others.
      if (!(await copyAnswers(interview))) {
        await db.interviewAnswers.deleteOne({ _id: answerId(interview._id, answer.index) });
        return false;
      }
      return true;
    },

    async declineAiAssessment(interview, now) {
      if (interview.ai_assessment_declined_at || (interview.status !== 'invited' && interview.status !== 'started')) return false;
      await store.change(interview, { set: { ai_assessment_declined_at: now } });
      return true;
    },

    async keepConversationRecording(interviewId, recording) {
      const now = await get(interviewId);
      if (!now || now.erased_at) return false;
      await store.change(now, { set: { conversation_recording: recording } });
      return true;
    },

    async switchToText(interview, now) {
      if (interview.interview_mode !== 'live' || interview.live_switched_at || interview.status !== 'started') return false;
      await store.change(interview, { set: { live_switched_at: now } });
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
