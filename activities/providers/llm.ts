import type { JobBrief, Question } from '../../shared/schemas/job';
import type { CallScript, JdExtraction } from '../../shared/schemas/ai';
import { generateQuestions } from '../../shared/question-generator';
import { extractJobRequirements, skillsMentioned } from '../../shared/jd-extractor';
import { writeCallScript, type ScriptBrief } from '../../shared/call-script';

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

/** Used when no OPENAI_API_KEY is set: the deterministic parser and generators in shared/. */
export class OfflineLanguageModel implements LanguageModel {
  readonly name: string = 'offline';

  async parseJobDescription(text: string): Promise<JdExtraction> {
    return extractJobRequirements(text);
  }

  async generateQuestions(job: JobBrief, count: number): Promise<Question[]> {
    // A brief without skills still gets skill questions when its description names some.
    const skills = job.skills_required.length + job.skills_good_to_have.length > 0 ? {} : { skills_required: skillsMentioned(job.description) };
    return generateQuestions({ ...job, ...skills }, count);
  }

  async generateScript(brief: ScriptBrief): Promise<CallScript> {
    return writeCallScript(brief);
  }
}
