import { Type, type Static } from '@sinclair/typebox';
import { Enum, NonEmpty, NOT_BLANK, Nullable, ONE_LINE, Strict } from '../schema-builders';
import { EmploymentType, Question, SeniorityLevel, WorkType } from '../jobs/schema';
import { ExtractVariable } from '../calls/schema';

/**
 * The language-model operations: POST /api/public/v1/ai/parse-jd, …/ai/generate-questions and
 * …/ai/generate-script (also mounted under /ai/…). Requests, responses and the model's own answers, as the
 * single source of truth for validation, types, the JSON schema sent to OpenAI and the API reference.
 */
const JobText = NonEmpty({ maxLength: 20_000, ...NOT_BLANK });
const Title = NonEmpty({ maxLength: 200, ...ONE_LINE });
const Skill = NonEmpty({ maxLength: 100, ...NOT_BLANK });

export const ParseJdRequest = Strict({ job_description: JobText });
export type ParseJdRequest = Static<typeof ParseJdRequest>;

/** Job requirements as parsed from text: whatever the text does not state is null, or an empty skill list. */
export const JobRequirements = Type.Object({
  min_experience: Nullable(
    Type.Number({ minimum: 0, maximum: 60 }),
    'Minimum years of experience the text asks for; null when it states none.',
  ),
  max_experience: Nullable(
    Type.Number({ minimum: 0, maximum: 60 }),
    'Upper end of a stated experience range, in years; null when the text gives no upper bound.',
  ),
  seniority_level: Nullable(SeniorityLevel, 'Seniority the text states (junior and graduate roles are Entry); null when not stated.'),
  work_type: Nullable(WorkType, 'Where the work happens as the text states it; null when not stated.'),
  employment_type: Nullable(EmploymentType, 'Employment type the text states; null when not stated.'),
  location: Nullable(
    Type.String({ minLength: 1, maxLength: 200 }),
    'Where the job is based as written in the text (city, region or country); null when not stated.',
  ),
  skills_required: Type.Array(Skill, {
    maxItems: 100,
    description: 'Skills, tools and certifications the text requires, each a short name.',
  }),
  skills_good_to_have: Type.Array(Skill, {
    maxItems: 100,
    description: 'Skills the text calls preferred, a plus, a bonus or nice to have.',
  }),
});
export type JobRequirements = Static<typeof JobRequirements>;

export const PARSE_JD_SUCCESS = 'Job requirements parsed successfully';
export const NOT_A_JOB_DESCRIPTION = 'The text is not a recognisable job description';

export const ParseJdResponse = Type.Union([
  Type.Object({ success: Type.Literal(true), message: Type.Literal(PARSE_JD_SUCCESS), data: JobRequirements }),
  Type.Object({ success: Type.Literal(false), message: Type.String() }),
]);
export type ParseJdResponse = Static<typeof ParseJdResponse>;

/** What a model answers to parse-jd: a verdict on the text, and the requirements when it is a job description. */
export const JdExtraction = Type.Object({
  is_job_description: Type.Boolean({ description: 'Whether the text describes a job opening (a role an employer is hiring for).' }),
  requirements: Type.Union([JobRequirements, Type.Null()], {
    description: 'The requirements when the text is a job description, else null.',
  }),
});
export type JdExtraction = Static<typeof JdExtraction>;

export const QUESTION_COUNT_BOUNDS = { minimum: 1, maximum: 20 } as const;

/** The job a question set or call script is for. Only the title and description are required. */
const JobBriefFields = {
  job_title: Title,
  job_description: JobText,
  seniority_level: Type.Optional(SeniorityLevel),
  min_experience: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  max_experience: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  work_type: Type.Optional(WorkType),
  employment_type: Type.Optional(EmploymentType),
  location: Type.Optional(NonEmpty({ maxLength: 200, ...NOT_BLANK })),
  skills_required: Type.Optional(Type.Array(Skill, { maxItems: 100 })),
  skills_good_to_have: Type.Optional(Type.Array(Skill, { maxItems: 100 })),
};

export const GenerateQuestionsRequest = Strict({
  ...JobBriefFields,
  count: Type.Optional(Type.Integer({ ...QUESTION_COUNT_BOUNDS, description: 'How many questions; 8 when absent.' })),
});
export type GenerateQuestionsRequest = Static<typeof GenerateQuestionsRequest>;

export const GenerateQuestionsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ questions: Type.Array(Question) }),
});
export type GenerateQuestionsResponse = Static<typeof GenerateQuestionsResponse>;

export const CALL_GOALS = ['screening', 'availability_check', 'interview_scheduling'] as const;
export type CallGoal = (typeof CALL_GOALS)[number];

export const GenerateScriptRequest = Strict({
  ...JobBriefFields,
  company: Type.Optional(
    NonEmpty({ maxLength: 200, ...NOT_BLANK, description: 'Company name to say on the call; {{sender_company}} when absent.' }),
  ),
  call_goal: Type.Optional(Enum(CALL_GOALS, { description: 'What the call is for; screening when absent.' })),
  extract_variables: Type.Optional(
    Type.Array(ExtractVariable, { maxItems: 50, description: 'Data points the agent should collect, as call/initiate takes them.' }),
  ),
});
export type GenerateScriptRequest = Static<typeof GenerateScriptRequest>;

/** A call script in the shape call/initiate takes; `{{…}}` references are built-in variables only. */
export const CallScript = Type.Object({
  first_message: Type.String({ minLength: 1, maxLength: 2000, description: 'The opening line the agent says.' }),
  instructions: Type.String({ minLength: 1, maxLength: 20_000, description: 'The system prompt that steers the agent through the call.' }),
});
export type CallScript = Static<typeof CallScript>;

export const GenerateScriptResponse = Type.Object({ success: Type.Literal(true), data: CallScript });
export type GenerateScriptResponse = Static<typeof GenerateScriptResponse>;
