import type { JobBrief, Question } from '../../shared/jobs/schema';
import type { CallScript, JdExtraction } from '../../shared/ai/schema';
import { generateQuestions } from '../../shared/interviews/question-generator';
import { extractJobRequirements, skillsMentioned } from '../../shared/ai/jd-extractor';
import { writeCallScript, type ScriptBrief } from '../../shared/calls/call-script';
import type { LanguageModel } from './port';
import { assessOffline, type AnswerToAssess, type AssessmentResult, type ModelAssessor } from '../../shared/interviews/assessment';

/** Used when no OPENAI_API_KEY is set: the deterministic parser and generators in shared/. */
export class OfflineLanguageModel implements LanguageModel {
  readonly name: string = 'offline';
  /** The offline rules (assessOffline) have no prompt: their own version stands in its place. */
  readonly assessor: ModelAssessor = { kind: 'offline', model: null, prompt_version: 'offline-rules-2026-11-24' };

  async parseJobDescription(text: string): Promise<JdExtraction> {
    return extractJobRequirements(text);
  }

  async generateQuestions(job: JobBrief, count: number): Promise<Question[]> {
    // A brief without skills still gets skill questions when its description names some.
    const skills =
      job.skills_required.length + job.skills_good_to_have.length > 0 ? {} : { skills_required: skillsMentioned(job.description) };
    return generateQuestions({ ...job, ...skills }, count);
  }

  async generateScript(brief: ScriptBrief): Promise<CallScript> {
    return writeCallScript(brief);
  }

  async assessInterview(job: JobBrief, answers: AnswerToAssess[]): Promise<AssessmentResult> {
    return assessOffline(job, answers);
  }
}
