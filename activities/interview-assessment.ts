import { interviewEvent } from '../stores/interviews';
import type { InterviewDoc, StoredAssessment } from '../infra/documents/interviews';
import {
  isSettled,
  NOTHING_ASSESSED,
  RUBRIC_VERSION,
  settleAssessment,
  type AnswerToAssess,
  type QuestionAssessment,
} from '../shared/interviews/assessment';
import { providerFailureText, UpstreamError } from '../shared/errors';
import type { ActivityDeps } from './deps';
import type { LanguageModel } from '../providers/llm/port';
import { loadInterview, loadInterviewProject } from './interviews';
import { asActivityFailure } from './provider-failures';

/** Recorded answers' transcripts by question index, as the workflow hands them from transcription to assessment. */
export type Transcripts = Record<string, string>;

const REASONS = {
  noAnswer: 'The question has no answer',
  timedOut: 'The answer arrived after the time limit',
  noTranscriber: 'The recording was not transcribed: no transcription service is configured',
  notTranscribed: 'The recording could not be transcribed',
  emptyTranscript: 'The recording has no speech in its transcript',
  declined: 'The candidate asked for a person, not an AI, to assess their answers',
} as const;

/**
 * A finished interview's assessment: transcripts of its recordings, then every answer scored against the
 * job by the language model (or the offline rules), stored on the interview once.
 */
export function createInterviewAssessmentActivities({
  stores,
  logger,
  clock,
  llm,
  transcriber,
}: Pick<ActivityDeps, 'stores' | 'logger' | 'clock' | 'llm' | 'transcriber'>) {
  const { interviews, recordings } = stores;
  const load = (interviewId: string) => loadInterview(stores, interviewId);
  const completed = (interview: InterviewDoc) => interviewEvent('interview.completed', interview);
  /** Stores the assessment with `interview.completed`, so the receiver has the whole result in one event. */
  async function store(interview: InterviewDoc, assessment: StoredAssessment): Promise<void> {
    await interviews.change(interview, { events: [completed(interview)], set: { assessment } });
  }
  /** An assessment stored by an earlier execution, which may have stopped before announcing it: its repeat is found made. */
  async function repeat(interview: InterviewDoc): Promise<void> {
    await interviews.change(interview, { events: [completed(interview)] });
  }

  /** The transcript of a recorded answer; null when there is no transcriber or no recording. */
  async function transcribe(interviewId: string, index: number): Promise<string | null> {
    const interview = await load(interviewId);
    // The candidate asked for a person instead: no machine listens to them either.
    if (interview.ai_assessment_declined_at) return null;
    const recorded = (interview.answers ?? []).find((a) => a.index === index)?.recording;
    const recording = recorded && transcriber ? await recordings.get(recorded.id) : null;
    if (!recording || !transcriber) return null;
    const parts: Buffer[] = [];
    for await (const part of recordings.bytes(recording)) parts.push(part);
    try {
      return await transcriber.transcribe({ bytes: Buffer.concat(parts), type: recording.type });
    } catch (err) {
      throw asActivityFailure(err, 'Transcription');
    }
  }

  /**
   * Assesses every answer that has text (typed or transcribed) in one request to the model and stores the
   * result; the others are `not_assessed` with the reason. An assessment already stored is kept as it is.
   */
  async function assess(interviewId: string, transcripts: Transcripts): Promise<'completed' | 'failed'> {
    const interview = await load(interviewId);
    if (isSettled(interview.assessment?.status)) {
      await repeat(interview);
      return 'completed';
    }
    if (interview.ai_assessment_declined_at) {
      await store(interview, declined(interview));
      return 'completed';
    }
    const project = await loadInterviewProject(stores, interview.project_id);
    const answers = toAssess(interview, transcripts, transcriber !== null);
    let result;
    try {
      result = answers.some((a) => a.text !== null) ? await llm.assessInterview(project.job, answers) : null;
    } catch (err) {
      if (!(err instanceof UpstreamError) || err.retryable) throw asActivityFailure(err, 'LanguageModel');
      // A refusal or a rejected request fails the same way every time: the assessment says so instead.
      logger.warn({ interviewId, provider: llm.name, error: err.message }, 'assessment refused by the language model');
      await store(interview, failed(llm, answers, transcripts, providerFailureText(err)));
      return 'failed';
    }
    // Evidence checked against the answers, injection flagged and the overall computed, whoever assessed.
    // With nothing to read, the overall still counts the questions and says whether a person should listen.
    const settled = answers.length ? settleAssessment(answers, result ?? { questions: [], summary: NOTHING_ASSESSED }) : null;
    const scored = new Map(settled?.questions.map((q) => [q.index, q]) ?? []);
    await store(interview, {
      status: 'completed',
      provider: llm.name,
      assessor: { ...llm.assessor, rubric_version: RUBRIC_VERSION },
      questions: answers.map((a): QuestionAssessment => {
        const q = scored.get(a.index);
        const transcript = transcripts[a.index] ?? null;
        if (!q) return notAssessed(a.index, transcript, a.missing);
        const { score, skills, evidence, flags } = q;
        return { index: a.index, status: 'assessed', score, skills, evidence, flags, transcript, reason: null };
      }),
      overall: settled?.overall ?? null,
      error: null,
      assessed_at: clock(),
    });
    logger.info({ interviewId, provider: llm.name, score: settled?.overall.score ?? null }, 'interview assessed');
    return 'completed';
  }

  return {
    /**
     * Transcribes a recorded answer and keeps the text with the answer (stores/interview-answers.ts): the
     * workflow learns only whether there is one, so no transcript is ever in its history (docs/erasure.md).
     */
    async transcribeAnswer(interviewId: string, index: number): Promise<boolean> {
      const text = await transcribe(interviewId, index);
      return text !== null && (await interviews.keepTranscript(interviewId, index, text));
    },

    /** Assesses the interview with the transcripts kept for it, read here rather than passed through the workflow. */
    async assessInterview(interviewId: string): Promise<'completed' | 'failed'> {
      return assess(interviewId, await interviews.transcripts(await load(interviewId)));
    },

    /** Records an assessment that could not be made after every retry, with the reason. */
    async failAssessment(interviewId: string, error: string): Promise<void> {
      const interview = await load(interviewId);
      if (isSettled(interview.assessment?.status)) return repeat(interview);
      if (interview.ai_assessment_declined_at) return store(interview, declined(interview));
      await store(interview, failed(llm, toAssess(interview, {}, transcriber !== null), {}, error));
    },
  };
}

/** Each question's answer as the assessor reads it, with the reason when there is nothing to read. */
function toAssess(interview: InterviewDoc, transcripts: Transcripts, transcribing: boolean): AnswerToAssess[] {
  return (interview.questions ?? []).map((question, index) => {
    const answer = (interview.answers ?? []).find((a) => a.index === index);
    const base = { index, question: question.question, type: question.type };
    if (!answer) return { ...base, answered: false, text: null, missing: REASONS.noAnswer };
    if (answer.timed_out) return { ...base, answered: false, text: null, missing: REASONS.timedOut };
    const answered = { ...base, answered: true };
    if (answer.text !== null) return { ...answered, text: answer.text, missing: null };
    const transcript = transcripts[index];
    if (transcript === undefined)
      return { ...answered, text: null, missing: transcribing ? REASONS.notTranscribed : REASONS.noTranscriber };
    return transcript.trim()
      ? { ...answered, text: transcript, missing: null }
      : { ...answered, text: null, missing: REASONS.emptyTranscript };
  });
}

/** A question the assessment says nothing of, and why. */
function notAssessed(index: number, transcript: string | null, reason: string | null): QuestionAssessment {
  return { index, status: 'not_assessed', score: null, skills: [], evidence: [], flags: [], transcript, reason };
}

/** The candidate's refusal of the AI, as the assessment records it: nothing assessed, a person to decide. */
function declined(interview: InterviewDoc): StoredAssessment {
  return {
    status: 'declined',
    provider: null,
    assessor: null,
    questions: (interview.questions ?? []).map((_, index) => notAssessed(index, null, REASONS.declined)),
    overall: null,
    error: null,
    assessed_at: null,
  };
}

function failed(
  llm: Pick<LanguageModel, 'name' | 'assessor'>,
  answers: AnswerToAssess[],
  transcripts: Transcripts,
  error: string,
): StoredAssessment {
  return {
    status: 'failed',
    provider: llm.name,
    assessor: { ...llm.assessor, rubric_version: RUBRIC_VERSION },
    questions: answers.map((a) => notAssessed(a.index, transcripts[a.index] ?? null, a.missing ?? 'The assessment could not be made')),
    overall: null,
    error,
    assessed_at: null,
  };
}

export type InterviewAssessmentActivities = ReturnType<typeof createInterviewAssessmentActivities>;
