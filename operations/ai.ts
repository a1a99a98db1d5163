import { UpstreamError, ValidationError } from '../shared/errors';
import type { LanguageModel } from '../providers/llm/port';
import { DEFAULT_QUESTION_COUNT } from '../shared/interviews/question-generator';
import type { JobBrief } from '../shared/jobs/schema';
import {
  NOT_A_JOB_DESCRIPTION,
  PARSE_JD_SUCCESS,
  type GenerateQuestionsRequest,
  type GenerateQuestionsResponse,
  type GenerateScriptRequest,
  type GenerateScriptResponse,
  type ParseJdRequest,
  type ParseJdResponse,
} from '../shared/ai/schema';

/**
 * The three language-model operations behind the API: request in, response body out. Model failures become
 * typed errors here, so a caller sees a clean 502/503 (or 422 for a refusal) and never the model's internals.
 */
export async function parseJd(llm: LanguageModel, input: ParseJdRequest): Promise<ParseJdResponse> {
  const result = await ask(() => llm.parseJobDescription(input.job_description));
  if (!result.is_job_description || !result.requirements) return { success: false, message: NOT_A_JOB_DESCRIPTION };
  return { success: true, message: PARSE_JD_SUCCESS, data: result.requirements };
}

export async function generateQuestions(llm: LanguageModel, input: GenerateQuestionsRequest): Promise<GenerateQuestionsResponse> {
  const count = input.count ?? DEFAULT_QUESTION_COUNT;
  const questions = await ask(() => llm.generateQuestions(brief(input), count));
  return { success: true, data: { questions } };
}

export async function generateScript(llm: LanguageModel, input: GenerateScriptRequest): Promise<GenerateScriptResponse> {
  const script = await ask(() =>
    llm.generateScript({
      ...brief(input),
      company: input.company ?? null,
      goal: input.call_goal ?? 'screening',
      extract_variables: input.extract_variables ?? [],
    }),
  );
  return { success: true, data: script };
}

function brief(input: GenerateQuestionsRequest | GenerateScriptRequest): JobBrief {
  return {
    title: input.job_title.trim(),
    description: input.job_description,
    seniority_level: input.seniority_level ?? null,
    min_experience: input.min_experience ?? null,
    max_experience: input.max_experience ?? null,
    work_type: input.work_type ?? null,
    employment_type: input.employment_type ?? null,
    location: input.location ?? null,
    skills_required: input.skills_required ?? [],
    skills_good_to_have: input.skills_good_to_have ?? [],
  };
}

async function ask<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    const code = err.detail.code;
    if (code === 'refusal') {
      throw new ValidationError('Request validation failed', [
        { path: ['job_description'], message: 'was declined by the language model' },
      ]);
    }
    if (code === 'rate_limited' || code === 'unavailable') {
      throw new UpstreamError('The language model is unavailable right now; please try again later.', err.provider, true, err.detail);
    }
    // The client is told 502: the model answered, and not usefully.
    throw new UpstreamError(
      code === 'malformed_output'
        ? 'The language model returned an unusable answer; please try again.'
        : 'The language model could not process the request.',
      err.provider,
      false,
      err.detail,
    );
  }
}
