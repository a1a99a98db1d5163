import { expiresAtOf, type InterviewDoc, type RecordingDoc, type StoredAnswer } from '../infra/documents/interviews';
import { linkExpired } from '../shared/interviews/deadlines';
import { ANSWER_GRACE_SECONDS, inTime, MAX_TEXT_ANSWER } from '../shared/interviews/session';
import { CONSENT_TEXT_VERSION } from '../shared/interviews/consent';
import { NotAnnouncedError } from '../stores/resource-store';
import type { OperationDeps } from './deps';

/** Where a step leaves the candidate: the page as it stands, or it with the notice of a question whose time ran out. */
export type StepOutcome = { late: number | null };
/** A text answer's step: as a step, or refused for what the candidate must change on the question's page. */
export type AnswerOutcome = StepOutcome | { refused: 'no_consent' } | { invalid: string; served: Date; draft: string };
/** Which page the link shows now: where the candidate stands. */
export type LinkPage =
  | { page: 'expired' | 'welcome' | 'completed' | 'finish' }
  | { page: 'not_ready'; failed: boolean }
  /** The next question, not served yet or its time run out while the page was closed (`timedOut`): a button opens it. */
  | { page: 'continue'; index: number; timedOut: boolean }
  | { page: 'question'; index: number; served: Date }
  /** A live interview's conversation, from question `index` (docs/live-interviews.md). */
  | { page: 'live'; index: number };
/** Whether a recording may be uploaded for a question now, and since when it has been served. */
export type RecordingOpen = { open: true; served: Date } | { open: false; why: 'no_consent' | 'closed' };

const stays: StepOutcome = { late: null };

/**
 * The candidate's steps on the interview page (docs/pages.md): each reads the interview as the link's handler
 * loaded it, changes it through its store at `at` (the pages' clock), and tells the interview's workflow when
 * it started or finished. The page handlers (web/interviews/routes.tsx) read the form, run one step and show
 * what comes next. Questions are answered in order: each step takes only the first without an answer.
 */
export function interviewSteps({ stores, workflows, logger }: Pick<OperationDeps, 'stores' | 'workflows' | 'logger'>) {
  const { interviews, recordings } = stores;
  const expired = (i: InterviewDoc, at: Date) => linkExpired(i.status, expiresAtOf(i), at);

  /**
   * A step, written: the page goes on even when its event could not be announced, which the interview's
   * workflow announces once it is told of the change (its followInterview step finds the change made, and its
   * repeat announces it).
   */
  async function written(step: Promise<boolean>): Promise<boolean> {
    try {
      return await step;
    } catch (err) {
      if (!(err instanceof NotAnnouncedError)) throw err;
      logger.warn({ err: err.cause }, "a candidate's step was written; its announcement is left to the workflow");
      return true;
    }
  }
  /** Tells the interview's workflow of a change; one it cannot hear now hears it when it next wakes. A link posted to after its interview ended reopens nothing. */
  const changed = (i: InterviewDoc) =>
    workflows
      .interviewChanged(i, { reopen: false })
      .catch((err: unknown) => logger.warn({ err, interviewId: i._id }, 'interview workflow not signalled of a change'));
  /** Serves the question after `index` (-1: the first), so the page shows it with its time running. */
  async function serveAfter(interview: InterviewDoc, index: number, at: Date): Promise<void> {
    if (index + 1 < (interview.questions ?? []).length) await interviews.serveQuestion(interview._id, index + 1, at);
  }
  /** Records a question whose time ran out as timed out, and serves the next: the page says so. */
  async function timedOut(interview: InterviewDoc, index: number, at: Date): Promise<StepOutcome> {
    const question = (interview.questions ?? [])[index];
    await interviews.saveAnswer(interview, {
      index,
      type: question.type,
      text: null,
      duration_seconds: null,
      answered_at: at,
      timed_out: true,
    });
    await serveAfter(interview, index, at);
    return { late: index + 1 };
  }
  /** The question `index` if it is the one open now, and since when it has been served. */
  async function openQuestion(interview: InterviewDoc, index: number, at: Date): Promise<Date | null> {
    if (interview.status !== 'started' || expired(interview, at) || (await interviews.nextQuestion(interview)) !== index) return null;
    return interviews.servedAt(interview._id, index);
  }

  return {
    /**
     * Where the candidate stands, for the link's page. A page load moves nothing: mail scanners and link
     * previews fetch every link. A question is served (its time starts) and a timed-out one recorded only by
     * the candidate's POSTs.
     */
    async standing(interview: InterviewDoc, at: Date): Promise<LinkPage> {
      const questions = interview.questions ?? [];
      if (expired(interview, at)) return { page: 'expired' };
      if (interview.status === 'queued' || interview.status === 'failed' || questions.length === 0) {
        return { page: 'not_ready', failed: interview.status === 'failed' };
      }
      // An interview started before consent was asked for asks for it before its next question.
      if (interview.status === 'invited' || (interview.status === 'started' && !interview.consent)) return { page: 'welcome' };
      if (interview.status === 'completed') return { page: 'completed' };
      const index = await interviews.nextQuestion(interview);
      if (index === null) return { page: 'finish' };
      if (interview.interview_mode === 'live' && !interview.live_switched_at) return { page: 'live', index };
      const served = await interviews.servedAt(interview._id, index);
      if (!served || !inTime(questions[index], served, at)) return { page: 'continue', index, timedOut: served !== null };
      return { page: 'question', index, served };
    },

    /** Starts the interview with the candidate's consent (a start without it is refused), and serves the first question. */
    async start(interview: InterviewDoc, consented: boolean, at: Date): Promise<StepOutcome | { refused: 'no_consent' }> {
      const open = !expired(interview, at) && (interview.status === 'invited' || interview.status === 'started');
      if (!consented && !interview.consent && open) return { refused: 'no_consent' };
      if (!expired(interview, at) && (await written(interviews.start(interview, at, CONSENT_TEXT_VERSION)))) {
        // A live interview's first question is served when the conversation asks it, after the microphone's check.
        if (interview.interview_mode !== 'live') await serveAfter(interview, -1, at);
        await changed(interview);
      }
      return stays;
    },

    /** Opens the next question: serves it, or, when its time ran out while the page was closed, records that. */
    async next(interview: InterviewDoc, at: Date): Promise<StepOutcome> {
      if (interview.status !== 'started' || expired(interview, at)) return stays;
      const index = await interviews.nextQuestion(interview);
      if (index === null) return stays;
      const served = await interviews.servedAt(interview._id, index);
      if (served && !inTime((interview.questions ?? [])[index], served, at)) return timedOut(interview, index, at);
      if (!served) await interviews.serveQuestion(interview._id, index, at);
      return stays;
    },

    /** A live interview's candidate answers the rest of the questions in writing (docs/live-interviews.md). */
    async switchToText(interview: InterviewDoc, at: Date): Promise<void> {
      if (!expired(interview, at)) await written(interviews.switchToText(interview, at));
    },

    /** The candidate asks for a person, not an AI, to assess their answers (docs/assessments.md). */
    async declineAiAssessment(interview: InterviewDoc, at: Date): Promise<void> {
      if (!expired(interview, at) && (await written(interviews.declineAiAssessment(interview, at)))) {
        logger.info({ interviewId: interview._id }, 'AI assessment declined by the candidate');
      }
    },

    /** A written answer to question `index` (which exists), in its time, not empty and not too long. */
    async answer(interview: InterviewDoc, index: number, given: string, at: Date): Promise<AnswerOutcome> {
      if (!interview.consent) return { refused: 'no_consent' };
      // Not started, finished, expired, or a form of a question already answered (another tab): the page shows where it stands.
      const served = await openQuestion(interview, index, at);
      if (!served) return stays;
      const question = (interview.questions ?? [])[index];
      if (!inTime(question, served, at)) return timedOut(interview, index, at);
      const text = given.trim();
      if (text === '' || text.length > MAX_TEXT_ANSWER) {
        const invalid =
          text === '' ? 'Please write an answer before you submit it.' : `Please shorten your answer to ${MAX_TEXT_ANSWER} characters.`;
        return { invalid, served, draft: text };
      }
      await interviews.saveAnswer(interview, {
        index,
        type: question.type,
        duration_seconds: null,
        answered_at: at,
        text,
        timed_out: false,
      });
      await serveAfter(interview, index, at);
      return stays;
    },

    /** Whether a recording of question `index` may be uploaded now (before its body is read). */
    async recordingOpen(interview: InterviewDoc, index: number, at: Date): Promise<RecordingOpen> {
      if (!interview.consent) return { open: false, why: 'no_consent' };
      const served = await openQuestion(interview, index, at);
      return served ? { open: true, served } : { open: false, why: 'closed' };
    },

    /**
     * A recording uploaded for question `index`, served at `served`: its answer, or, past the question's time,
     * the question recorded as timed out and the recording removed. `seconds`: the length the recorder
     * measured, bounded by the question's time limit and its grace.
     */
    async recorded(
      interview: InterviewDoc,
      index: number,
      recording: RecordingDoc,
      served: Date,
      seconds: number,
      at: Date,
    ): Promise<StepOutcome> {
      const question = (interview.questions ?? [])[index];
      const answer: Pick<StoredAnswer, 'index' | 'type' | 'text' | 'answered_at'> = {
        index,
        type: question.type,
        text: null,
        answered_at: at,
      };
      if (!inTime(question, served, at)) {
        await recordings.remove(recording);
        await interviews.saveAnswer(interview, { ...answer, duration_seconds: null, timed_out: true });
        await serveAfter(interview, index, at);
        return { late: index + 1 };
      }
      const duration =
        Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, question.time_limit_seconds + ANSWER_GRACE_SECONDS) : null;
      const stored = { id: recording._id, type: recording.type, size: recording.size };
      // Another tab's answer won: this recording belongs to no answer.
      if (!(await interviews.saveAnswer(interview, { ...answer, recording: stored, duration_seconds: duration, timed_out: false }))) {
        await recordings.remove(recording);
      }
      await serveAfter(interview, index, at);
      return stays;
    },

    /** Finishes the interview; a finish posted again tells the workflow again, in case it could not hear the first. */
    async finish(interview: InterviewDoc, at: Date): Promise<void> {
      if (interview.status === 'completed' || (!expired(interview, at) && (await written(interviews.complete(interview, at))))) {
        await changed(interview);
      }
    },
  };
}

export type InterviewSteps = ReturnType<typeof interviewSteps>;
