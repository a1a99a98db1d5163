import type { JobBrief, Question } from '../../shared/jobs/schema';
import type { CallScript, JdExtraction } from '../../shared/ai/schema';
import type { ScriptBrief } from '../../shared/calls/call-script';
import type { AnswerToAssess, AssessmentResult, ModelAssessor } from '../../shared/interviews/assessment';

/**
 * The language-model operations the service uses, whatever model is behind them. A failure is an
 * UpstreamError (shared/errors.ts) whose `detail.code` says why (ModelFailure): `retryable` separates what
 * may pass on a later attempt (rate limits, outages, an output that did not match the schema) from what will
 * fail the same way (a refusal, a rejected request or key).
 */
export interface LanguageModel {
  readonly name: string;
  /** Who assesses with it, recorded on every assessment it makes, with the rubric's version. */
  readonly assessor: ModelAssessor;
  /** Requirements stated in a job ad, or a verdict that the text is not one. */
  parseJobDescription(text: string): Promise<JdExtraction>;
  generateQuestions(job: JobBrief, count: number): Promise<Question[]>;
  generateScript(brief: ScriptBrief): Promise<CallScript>;
  /** Scores a finished interview's answers (those with text) against its job, and the interview as a whole. */
  assessInterview(job: JobBrief, answers: AnswerToAssess[]): Promise<AssessmentResult>;
}
