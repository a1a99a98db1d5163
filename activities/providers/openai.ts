import OpenAI from 'openai';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Question, type JobDetails } from '../../shared/schemas/job';
import { LanguageModelError, type LanguageModel } from './llm';
import { toStrictJsonSchema } from './strict-json-schema';

export interface OpenAiOptions {
  apiKey: string;
  /** Any OpenAI-compatible Chat Completions endpoint; the SDK's default (api.openai.com) when unset. */
  baseUrl?: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

const QuestionList = Type.Object({ questions: Type.Array(Question, { minItems: 1 }) });

/**
 * The language model on OpenAI's Chat Completions API with strict JSON-schema structured output. The schema
 * sent to the model is derived from the TypeBox schema that then validates the answer, so the two never
 * drift; the SDK retries rate limits and 5xx within the timeout, and what is left becomes a typed error.
 */
export class OpenAiLanguageModel implements LanguageModel {
  readonly name = 'openai';
  private readonly client: OpenAI;

  constructor(private readonly opts: OpenAiOptions) {
    this.client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseUrl, timeout: opts.timeoutMs, maxRetries: opts.maxRetries });
  }

  async generateQuestions(job: JobDetails, count: number): Promise<Question[]> {
    const { questions } = await this.structured('interview_questions', QuestionList, [
      'You write interview questions for asynchronous one-way job interviews that candidates answer on their own.',
      `Write exactly ${count} questions for the job below: specific to its skills, responsibilities and seniority, open-ended, one topic each, no yes/no questions, no questions about protected characteristics.`,
      'type is "video" for spoken answers (most questions) or "text" for answers that need writing; time_limit_seconds is between 60 and 300 for video and up to 600 for text.',
    ].join(' '), describeJob(job));
    return questions.slice(0, count);
  }

  /** One chat completion whose answer must match `schema`; anything else is a LanguageModelError. */
  private async structured<T extends TSchema>(name: string, schema: T, instructions: string, input: string): Promise<Static<T>> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create({
        model: this.opts.model,
        messages: [
          { role: 'system', content: instructions },
          { role: 'user', content: input },
        ],
        response_format: { type: 'json_schema', json_schema: { name, strict: true, schema: toStrictJsonSchema(schema) } },
      });
    } catch (err) {
      throw fromApiError(err);
    }
    const choice = completion.choices[0];
    if (choice?.message?.refusal) throw new LanguageModelError(`The model declined: ${choice.message.refusal}`, 'refusal', false);
    if (!choice || choice.finish_reason === 'length') throw new LanguageModelError('The model answer was cut off', 'malformed_output', true);
    if (choice.finish_reason === 'content_filter') throw new LanguageModelError('The model answer was withheld by the content filter', 'refusal', false);
    let parsed: unknown;
    try {
      parsed = JSON.parse(choice.message.content ?? '');
    } catch {
      throw new LanguageModelError('The model answer is not valid JSON', 'malformed_output', true);
    }
    const check = compiled(schema);
    if (!check.Check(parsed)) {
      const first = check.Errors(parsed).First();
      throw new LanguageModelError(`The model answer does not match the schema${first ? ` at ${first.path || '/'}: ${first.message}` : ''}`, 'malformed_output', true);
    }
    return parsed as Static<T>;
  }
}

const compiledSchemas = new WeakMap<TSchema, ReturnType<typeof TypeCompiler.Compile>>();
function compiled(schema: TSchema) {
  let check = compiledSchemas.get(schema);
  if (!check) compiledSchemas.set(schema, (check = TypeCompiler.Compile(schema)));
  return check;
}

function fromApiError(err: unknown): LanguageModelError {
  if (err instanceof OpenAI.APIConnectionError) return new LanguageModelError(`The model could not be reached: ${err.message}`, 'unavailable', true);
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 0;
    const detail = err.message;
    if (status === 429) return new LanguageModelError(`The model is rate-limited (${detail})`, 'rate_limited', true);
    if (status >= 500 || status === 408 || status === 409) return new LanguageModelError(`The model is unavailable (${detail})`, 'unavailable', true);
    return new LanguageModelError(`The model rejected the request (${detail})`, 'rejected', false);
  }
  return new LanguageModelError(`The model call failed: ${(err as Error).message}`, 'unavailable', true);
}

function describeJob(job: JobDetails): string {
  return [
    `Job title: ${job.title}`,
    `Seniority: ${job.seniority_level}`,
    `Experience: ${job.min_experience} to ${job.max_experience} years`,
    `Work type: ${job.work_type}; employment: ${job.employment_type}; location: ${job.location}`,
    `Required skills: ${job.skills_required.join(', ')}`,
    `Nice-to-have skills: ${job.skills_good_to_have.join(', ')}`,
    '',
    'Description:',
    job.description,
  ].join('\n');
}
