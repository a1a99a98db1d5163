import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable } from '../schema-builders';
import type { JobBrief, QuestionType } from '../jobs/schema';

/**
 * The assessment of a finished interview: what a model (or, without one, the offline rules below) makes of
 * each answer against the job, and of the whole. One vocabulary for the model's structured output, the
 * stored record and GET /interviews/:id.
 */
export const RECOMMENDATIONS = ['advance', 'consider', 'reject'] as const;
export type Recommendation = (typeof RECOMMENDATIONS)[number];
export const ASSESSMENT_STATUSES = ['pending', 'completed', 'failed', 'declined'] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];
/** An assessment that is made, or that the candidate declined: nothing more runs for it. */
export const isSettled = (status: AssessmentStatus | undefined): boolean => status === 'completed' || status === 'declined';

const Score = Type.Integer({ minimum: 1, maximum: 5, description: '1 (no evidence) to 5 (strong, specific evidence)' });

/** What a recruiter is told to look at in an answer: one that reads like instructions to the assessor. */
export const ASSESSMENT_FLAGS = ['possible_injection'] as const;
export type AssessmentFlag = (typeof ASSESSMENT_FLAGS)[number];

/**
 * What the model answers: strict, so OpenAI's structured outputs hold it to this shape. Only per-answer
 * judgements and a summary: the overall score and the recommendation are computed from the scores
 * (`settleAssessment`), so no answer can talk the model into them.
 */
export const ModelAssessment = Type.Object({
  answers: Type.Array(
    Type.Object({
      index: Type.Integer({ minimum: 0, description: 'The answer’s index, as given' }),
      score: Score,
      skills: Type.Array(Type.String(), { description: 'Skills of the job the answer shows evidence of, named as in the job' }),
      evidence: Type.Array(Type.String(), { description: 'Short verbatim quotes from the answer that support the score' }),
    }),
  ),
  summary: Type.String({ description: 'Two or three sentences for the recruiter' }),
});
export type ModelAssessment = Static<typeof ModelAssessment>;

/** One question's assessment as stored and returned. */
export const QuestionAssessment = Type.Object({
  index: Type.Integer({ minimum: 0 }),
  /** `not_assessed`: nothing to assess (a timed-out question, a recording without a transcript); `reason` says which. */
  status: Enum(['assessed', 'not_assessed'] as const),
  score: Nullable(Type.Integer({ minimum: 1, maximum: 5 })),
  skills: Type.Array(Type.String()),
  /** Quotes of the answer that support the score; every one is a passage of the answer itself. */
  evidence: Type.Array(Type.String()),
  /** `possible_injection`: the answer reads like instructions to the assessor; its score deserves a human look. */
  flags: Type.Array(Enum(ASSESSMENT_FLAGS)),
  /** A recorded answer's transcript, when one was made. */
  transcript: Nullable(Type.String()),
  reason: Nullable(Type.String()),
});
export type QuestionAssessment = Static<typeof QuestionAssessment>;

/**
 * The version of the rules that settle every assessment (settleAssessment: the overall, the flags, the
 * recommendation). A change to those rules takes a new date, so each assessment says which it was made under.
 */
export const RUBRIC_VERSION = '2026-11-26';

export const ASSESSOR_KINDS = ['openai', 'offline'] as const;

/** Who made an assessment: the model (or the offline rules), the instructions it was given, and the rules it was settled by. */
export const Assessor = Type.Object({
  kind: Enum(ASSESSOR_KINDS),
  model: Nullable(Type.String({ description: 'The model that judged the answers (e.g. `gpt-4o-mini`); null for the offline rules.' })),
  prompt_version: Type.String({
    description: "The version of the instructions the model was given; the offline rules' own version offline.",
  }),
  rubric_version: Type.String({
    description: 'The version of the rules that settle an assessment: the overall score, the flags, the recommendation.',
  }),
});
export type Assessor = Static<typeof Assessor>;
/** What a language model says of itself as an assessor (providers/llm/port.ts); the rubric is the service's. */
export type ModelAssessor = Omit<Assessor, 'rubric_version'>;

export const InterviewAssessment = Type.Object({
  /**
   * `pending` from the candidate's finish until the assessment is stored; `failed` with `error` when it could not
   * be made; `declined` when the candidate asked for a person instead of the AI (nothing was transcribed or assessed).
   */
  status: Enum(ASSESSMENT_STATUSES),
  /** Who assessed: `openai` or `offline`. */
  provider: Nullable(Type.String()),
  /** Who assessed, in full: null until the assessment is made. */
  assessor: Nullable(Assessor),
  questions: Type.Array(QuestionAssessment),
  overall: Nullable(
    Type.Object({
      score: Type.Integer({ minimum: 1, maximum: 5 }),
      summary: Type.String(),
      recommendation: Enum(RECOMMENDATIONS),
      answered: Type.Integer({
        minimum: 0,
        description: 'How many of the questions the candidate answered (typed, or recorded whether or not it could be transcribed).',
      }),
      needs_human_review: Type.Boolean({
        description:
          'A person should look before deciding: a recorded answer could not be read, or an answer reads like instructions to the assessor.',
      }),
    }),
  ),
  error: Nullable(Type.String()),
  assessed_at: Nullable(Type.String({ format: 'date-time' })),
});
export type InterviewAssessment = Static<typeof InterviewAssessment>;

/** An answer as the assessor reads it: its question, and its text (typed or transcribed), or null. */
export interface AnswerToAssess {
  index: number;
  question: string;
  type: QuestionType;
  /** The candidate answered it: typed, or recorded (transcribed or not); false for no answer and a timed-out one. */
  answered: boolean;
  /** The typed answer or the recording's transcript; null when there is nothing to read. */
  text: string | null;
  /** Why `text` is null: the reason its assessment gives. */
  missing: string | null;
}

/** What an assessor returns: its judgement of each answer, and a summary. `settleAssessment` does the rest. */
export interface AssessmentResult {
  questions: Array<{ index: number; score: number; skills: string[]; evidence: string[] }>;
  summary: string;
}

/** An assessment as it is kept: each answer's judgement checked against the answer, and the overall computed. */
export interface SettledAssessment {
  questions: Array<AssessmentResult['questions'][number] & { flags: AssessmentFlag[] }>;
  overall: NonNullable<InterviewAssessment['overall']>;
}

/**
 * What is kept of an assessor's answer, whoever the assessor: evidence that is not a passage of the answer
 * (compared ignoring case and runs of spaces) is dropped; an answer that reads like instructions is flagged.
 * The overall score is the mean over the questions, rounded: an unanswered or timed-out question counts as 1,
 * so one strong answer out of three is not `advance`; a recorded answer that could not be read was answered,
 * and is left out of the mean for a person to hear. The recommendation follows from the score (4 and up
 * advance, 3 consider, below reject), but an interview with a flagged answer, or with a recorded answer that
 * could not be read (silent, empty, or no transcriber), is never `advance`: one strong typed answer and two
 * silent recordings is at most `consider`. None of these is the model's to decide.
 */
export function settleAssessment(answers: AnswerToAssess[], result: AssessmentResult): SettledAssessment {
  const texts = new Map(answers.map((a) => [a.index, a.text ?? '']));
  const questions = result.questions.map((q) => {
    const text = texts.get(q.index) ?? '';
    const said = loose(text);
    return {
      ...q,
      evidence: q.evidence.filter((e) => loose(e).length > 0 && said.includes(loose(e))),
      flags: readsLikeInstructions(text) ? (['possible_injection'] as AssessmentFlag[]) : [],
    };
  });
  const scores = new Map(questions.map((q) => [q.index, q.score]));
  // A question the assessor was given but did not score counts as 1, as an unanswered one does.
  const counted = answers.flatMap((a) => (!a.answered ? [1] : a.text === null ? [] : [scores.get(a.index) ?? 1]));
  const mean = counted.length ? counted.reduce((sum, n) => sum + n, 0) / counted.length : 1;
  const score = Math.max(1, Math.min(5, Math.round(mean)));
  const flagged = questions.some((q) => q.flags.length > 0);
  const unread = answers.some((a) => a.answered && a.text === null);
  const recommendation: Recommendation = score >= 4 && !flagged && !unread ? 'advance' : score >= 3 ? 'consider' : 'reject';
  return {
    questions,
    overall: {
      score,
      summary: result.summary,
      recommendation,
      answered: answers.filter((a) => a.answered).length,
      needs_human_review: flagged || unread,
    },
  };
}

const loose = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Whether an answer reads like instructions to whoever assesses it: talk of prompts, instructions, scores or
 * recommendations addressed to a model or a reviewer, or an attempt to close the fence the answers are sent
 * in, in English, Spanish, French, German and Portuguese. Read through Unicode format characters (zero-width
 * and bidi marks), compatibility forms and accents, which hide the words from a pattern but not from a model.
 * A flag for a human: it keeps the interview from `advance`, and changes no score. Linear patterns only (each
 * a literal run with bounded gaps).
 */
export function readsLikeInstructions(text: string): boolean {
  const t = loose(
    text
      .normalize('NFKD')
      .replace(/[\p{Cf}\p{M}]/gu, '')
      .normalize('NFKC'),
  );
  return INJECTION_PATTERNS.some((p) => p.test(t));
}

/** Who an answer addresses when it gives orders: the reviewer, in the five languages, or a model. */
const ASSESSOR =
  '(reviewers?|assessors?|evaluators?|graders?|recruiters?|hiring managers?|examiners?|evaluador(es|a)?|revisor(es|a)?|reclutador(es|a)?|' +
  'evaluateurs?|evaluatrices?|correcteurs?|recruteurs?|examinateurs?|prufer(in)?|bewerter(in)?|gutachter(in)?|personaler(in)?|' +
  'avaliador(es|a)?|recrutador(es|a)?|examinador(es|a)?)';
const NOTE =
  '(note|notes|nota|notas|hinweis|anmerkung|notiz|remarque|message|mensaje|mensagem|nachricht|instructions?|instrucciones|instrucoes)';

const INJECTION_PATTERNS: RegExp[] = [
  /\b(ignore|disregard|forget|override)\b.{0,40}\b(instructions?|prompts?|rules|guidelines|above|previous|prior)\b/,
  /\b(system|developer|assistant)\s+(prompt|message|instructions?)\b/,
  /\b(you are|act as|pretend to be)\s+(now\s+)?(an?\s+)?(ai|assistant|language model|llm|chatgpt|gpt|grader|assessor|evaluator)\b/,
  // "As an AI …", but not "as an evaluator", which a candidate may have been.
  /\bas an?\s+(ai|assistant|language model|llm|chatgpt|gpt)\b/,
  /\b(give|rate|score|assign|award|mark)\b.{0,30}\b(5|five|10|ten|full|maximum|max|highest|top|perfect)\b.{0,20}\b(score|marks?|points?|rating|out of)\b/,
  /\b(recommend(ation)?|verdict)\b.{0,20}\b(advance|hire)\b.{0,30}\b(regardless|no matter|always|must)\b/,
  /\b(score|rate|mark|grade)\s+(this|me|it|the candidate|my answers?)\s+(as\s+)?(a\s+)?(5|five|10|ten)\b/,
  /<\/?\s*answers?[-_ ]/,
  /\bend of (the )?answers?\b/,
  // Words addressed to the reviewer: "Reviewer note: …", "Nota para el evaluador", "Hinweis an den Prüfer".
  // (A role alone before a colon only at the start of a sentence: "I was a recruiter: …" is a career.)
  new RegExp(`\\b${ASSESSOR}\\s*${NOTE}\\s*:|(^|[.!?]\\s+)(dear\\s+|to the\\s+)?${ASSESSOR}\\s*:`),
  new RegExp(
    `\\b${NOTE}\\s+(to|for|para|pour|a|an|fur|ao|al)\\s+(the\\s+|el\\s+|la\\s+|los\\s+|l'|le\\s+|au\\s+|den\\s+|die\\s+|o\\s+|a\\s+)?${ASSESSOR}\\b`,
  ),
  // A clear 5/5, 10/10: a grade handed to the reader.
  /\b(a\s+)?(clear|solid|definite|easy|obvious)\s+(5|10)\s*\/\s*(5|10)\b/,
  // An order to grade: "give me a 5/5", "dame la puntuación máxima", "donnez la note maximale", "gib mir die volle
  // Punktzahl", "atribua a nota máxima"; a grade word is needed, as "give maximum effort" is no order to grade.
  /\b(give|rate|score|grade|mark|dale|dame|califica|puntua|atribua|avalie|donne|donnez|notez|attribuez|gib|geben sie|bewerte|bewerten sie)\b.{0,30}(\b(5|10)\s*\/\s*(5|10)\b|\b(puntuacion|calificacion|nota|note|pontuacao|punktzahl|score|grade|marks?)\s+(maxima|maximale|maximum|perfecta|perfeita|parfaite|perfect)\b|\b(hochste|volle)\s+punktzahl\b|\bhochstpunktzahl\b|\bfull marks\b)/,
  // Other languages' "ignore the instructions".
  /\b(ignora|ignore[sz]?|ignoriere|ignorieren sie|olvida|olvide|esquece|esqueca|oublie[sz]?|vergiss|vergessen sie)\b.{0,40}\b(instrucciones|instructions|consignes|anweisungen|instrucoes|reglas|regles|regeln|regras|indicaciones)\b/,
];

/** The summary of an interview none of whose answers could be read, whoever assesses. */
export const NOTHING_ASSESSED = 'No answer could be assessed.';

/**
 * The offline assessor: deterministic, from the job's skills alone. An answer scores by the job's skills it
 * names (required ones count double) and by its length, which stands in for substance; the overall score is
 * computed as for any assessor (settleAssessment). Crude by design, and labelled `offline` wherever it shows, so no one
 * takes it for a model's judgement.
 */
export function assessOffline(job: JobBrief, answers: AnswerToAssess[]): AssessmentResult {
  const questions = answers
    .filter((a) => a.text !== null)
    .map((a) => {
      const text = a.text!;
      const required = job.skills_required.filter((s) => mentions(text, s));
      const nice = job.skills_good_to_have.filter((s) => mentions(text, s));
      const words = text.split(/\s+/).filter(Boolean).length;
      const points = 2 * required.length + nice.length + (words >= 60 ? 2 : words >= 20 ? 1 : 0);
      const score = Math.min(5, 1 + Math.ceil(points / 2));
      const skills = [...required, ...nice];
      return { index: a.index, score, skills, evidence: [...new Set(skills.map((s) => sentenceWith(text, s)))] };
    });
  const shown = [...new Set(questions.flatMap((q) => q.skills))];
  const summary =
    questions.length === 0
      ? NOTHING_ASSESSED
      : `Offline assessment of ${questions.length} of ${answers.length} answers by the job's skills they name. ` +
        (shown.length ? `Skills named: ${shown.join(', ')}.` : "The answers name none of the job's skills.");
  return { questions, summary };
}

/** Whether `text` names `skill` as a whole word or phrase, in any case. */
function mentions(text: string, skill: string): boolean {
  const escaped = skill.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

/** The sentence of `text` that names `skill`, cut to 200 characters: the quoted evidence. */
function sentenceWith(text: string, skill: string): string {
  const sentence = text.split(/(?<=[.!?])\s+/).find((s) => mentions(s, skill)) ?? text;
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence;
}
