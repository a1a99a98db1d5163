import type { JobBrief, Question } from '../../shared/jobs/schema';
import type { CallScript, JdExtraction } from '../../shared/ai/schema';
import type { ScriptBrief } from '../../shared/calls/call-script';

/**
 * Why a language-model call failed. `retryable` separates what may pass on a later attempt (rate limits,
 * outages, an output that did not match the schema) from what will fail the same way (a refusal, a
 * rejected request or key).
 */
export class LanguageModelError extends Error {
  constructor(
    message: string,
    readonly code: 'refusal' | 'malformed_output' | 'rate_limited' | 'unavailable' | 'rejected',
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'LanguageModelError';
  }
}

/** The language-model operations the service uses, whatever model is behind them. */
export interface LanguageModel {
  readonly name: string;
  /** Requirements stated in a job ad, or a verdict that the text is not one. */
  parseJobDescription(text: string): Promise<JdExtraction>;
  generateQuestions(job: JobBrief, count: number): Promise<Question[]>;
  generateScript(brief: ScriptBrief): Promise<CallScript>;
}
