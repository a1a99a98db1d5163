import type { JobDetails, Question } from '../../shared/schemas/job';
import { generateQuestions } from '../../shared/question-generator';

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
  generateQuestions(job: JobDetails, count: number): Promise<Question[]>;
}

/** Used when no OPENAI_API_KEY is set: the deterministic generators in shared/. */
export class OfflineLanguageModel implements LanguageModel {
  readonly name = 'offline';

  async generateQuestions(job: JobDetails, count: number): Promise<Question[]> {
    return generateQuestions(job, count);
  }
}
