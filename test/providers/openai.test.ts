import { OpenAiLanguageModel } from '../../providers/llm/openai';
import { UpstreamError } from '../../shared/errors';
import { languageModel } from '../../composition/providers';
import { jobDetails } from '../helpers/job';
import { startHttpStub, type HttpStub, type StubReply } from '../helpers/http-stub';
import { testConfig } from '../helpers/stack';
import { apiError, completion } from '../helpers/openai-wire';

const job = jobDetails({
  title: 'Site Reliability Engineer',
  description: 'Keep our payment APIs fast and available.',
  min_experience: 4,
  max_experience: 9,
  seniority_level: 'Senior',
  work_type: 'On Site',
  employment_type: 'Contract',
  location: 'Dublin',
  skills_required: ['Linux', 'Kubernetes', 'Go'],
  skills_good_to_have: ['Terraform', 'Grafana', 'Postgres'],
});
const questions = [
  { question: 'How would you cut p99 latency of a payments API?', type: 'video', time_limit_seconds: 180 },
  { question: 'Write a runbook outline for a failing Kubernetes node.', type: 'text', time_limit_seconds: 600 },
];

describe('OpenAI adapter against a local Chat Completions API', () => {
  let stub: HttpStub;
  let next: StubReply[] = [];
  beforeAll(async () => {
    stub = await startHttpStub(() => next.shift() ?? { status: 200, body: completion({ content: JSON.stringify({ questions }) }) });
  });
  afterAll(() => stub?.close());
  beforeEach(() => {
    stub.requests.length = 0;
    next = [];
  });
  const model = (opts: { maxRetries?: number; timeoutMs?: number } = {}) =>
    new OpenAiLanguageModel({
      apiKey: 'sk-test-secret',
      baseUrl: `${stub.url}/v1`,
      model: 'gpt-4o-mini',
      timeoutMs: opts.timeoutMs ?? 2_000,
      maxRetries: opts.maxRetries ?? 0,
    });
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => {
        expect(e).toBeInstanceOf(UpstreamError);
        return e as UpstreamError;
      },
    );

  it('sends the job with a strict JSON schema and returns the validated questions', async () => {
    expect(await model().generateQuestions(job, 2)).toEqual(questions);
    const [req] = stub.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test-secret');
    expect(req.body.model).toBe('gpt-4o-mini');
    expect(req.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(req.body.messages[0].content).toContain('exactly 2 questions');
    expect(req.body.messages[1].content).toContain('Job title: Site Reliability Engineer');
    expect(req.body.messages[1].content).toContain('Required skills: Linux, Kubernetes, Go');
    expect(req.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'interview_questions',
        strict: true,
        schema: {
          type: 'object',
          additionalProperties: false,
          required: ['questions'],
          properties: {
            questions: {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['question', 'type', 'time_limit_seconds'],
                properties: {
                  question: { type: 'string' },
                  type: { type: 'string', enum: ['text', 'video', 'audio'] },
                  time_limit_seconds: { type: 'integer' },
                },
              },
            },
          },
        },
      },
    });
  });

  it('keeps no more questions than asked for', async () => {
    expect(await model().generateQuestions(job, 1)).toEqual(questions.slice(0, 1));
  });

  it('turns a refusal into a final error', async () => {
    next = [{ status: 200, body: completion({ refusal: "I'm sorry, I can't help with that request." }) }];
    expect(await failure(model().generateQuestions(job, 2))).toMatchObject({
      detail: expect.objectContaining({ code: 'refusal' }),
      retryable: false,
      message: expect.stringContaining("can't help"),
    });
  });

  it.each([
    ['output that is not JSON', completion({ content: '{"questions": [{"question": "Why' }), /not valid JSON/],
    [
      'output of the wrong shape',
      completion({ content: JSON.stringify({ questions: [{ question: 'Why?', type: 'essay', time_limit_seconds: 60 }] }) }),
      /does not match the schema at \/questions\/0\/type/,
    ],
    ['an answer cut off at max tokens', completion({ content: '{"questions": [' }, 'length'), /cut off/],
  ])('rejects %s as malformed, worth another attempt', async (_name, body, message) => {
    next = [{ status: 200, body }];
    expect(await failure(model().generateQuestions(job, 2))).toMatchObject({
      detail: expect.objectContaining({ code: 'malformed_output' }),
      retryable: true,
      message: expect.stringMatching(message),
    });
  });

  it('lets the SDK retry a 429, then reports the rate limit as retryable', async () => {
    const limited: StubReply = {
      status: 429,
      headers: { 'retry-after-ms': '10' },
      body: apiError('Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3.', 'requests', 'rate_limit_exceeded'),
    };
    next = [limited, limited];
    const err = await failure(model({ maxRetries: 1 }).generateQuestions(job, 2));
    expect(stub.requests).toHaveLength(2);
    expect(err).toMatchObject({
      detail: expect.objectContaining({ code: 'rate_limited' }),
      retryable: true,
      message: expect.stringContaining('Rate limit reached'),
    });
  });

  it('recovers when a retried 500 succeeds', async () => {
    next = [
      {
        status: 500,
        headers: { 'retry-after-ms': '10' },
        body: apiError('The server had an error while processing your request.', 'server_error', null),
      },
    ];
    expect(await model({ maxRetries: 1 }).generateQuestions(job, 2)).toEqual(questions);
    expect(stub.requests).toHaveLength(2);
  });

  it('reports a 500 after the retries as unavailable and a 401 as a final rejection', async () => {
    next = [{ status: 500, body: apiError('The server had an error while processing your request.', 'server_error', null) }];
    expect(await failure(model().generateQuestions(job, 2))).toMatchObject({
      detail: expect.objectContaining({ code: 'unavailable' }),
      retryable: true,
    });
    next = [{ status: 401, body: apiError('Incorrect API key provided: sk-test-****cret.', 'invalid_request_error', 'invalid_api_key') }];
    expect(await failure(model().generateQuestions(job, 2))).toMatchObject({
      detail: expect.objectContaining({ code: 'rejected' }),
      retryable: false,
      message: expect.stringContaining('Incorrect API key'),
    });
  });

  it('gives up on a model that does not answer within the timeout', async () => {
    next = [{ hang: true }];
    expect(await failure(model({ timeoutMs: 200 }).generateQuestions(job, 2))).toMatchObject({
      detail: expect.objectContaining({ code: 'unavailable' }),
      retryable: true,
    });
  });

  it('is chosen, with its base URL, when OPENAI_API_KEY is set; the offline model otherwise', async () => {
    expect(languageModel(testConfig()).name).toBe('offline');
    const configured = languageModel(
      testConfig({ OPENAI_API_KEY: 'sk-test-secret', OPENAI_BASE_URL: `${stub.url}/v1`, OPENAI_MODEL: 'gpt-4.1-mini' }),
    );
    expect(configured.name).toBe('openai');
    await configured.generateQuestions(job, 2);
    expect(stub.requests[0].body.model).toBe('gpt-4.1-mini');
  });

  describe('parse-jd', () => {
    const ad = 'Senior Go Engineer, Berlin (hybrid). 5+ years of Go and PostgreSQL; Kafka is a plus. Full-time.';
    const requirements = {
      min_experience: 5,
      max_experience: null,
      seniority_level: 'Senior',
      work_type: 'Hybrid',
      employment_type: 'Full Time',
      location: 'Berlin',
      skills_required: ['Go', 'PostgreSQL'],
      skills_good_to_have: ['Kafka'],
    };
    const answer = (content: unknown) => ({ status: 200, body: completion({ content: JSON.stringify(content) }) });

    it('sends the text with the strict requirements schema and returns the validated answer', async () => {
      next = [answer({ is_job_description: true, requirements })];
      expect(await model().parseJobDescription(ad)).toEqual({ is_job_description: true, requirements });
      const { body } = stub.requests[0];
      expect(body.messages[1].content).toBe(ad);
      expect(body.messages[0].content).toContain('Never guess');
      const { name, strict, schema } = body.response_format.json_schema;
      expect([name, strict]).toEqual(['job_requirements', true]);
      expect(schema.required).toEqual(['is_job_description', 'requirements']);
      const fields = schema.properties.requirements.anyOf[0];
      expect(fields.additionalProperties).toBe(false);
      expect(fields.required).toEqual(Object.keys(requirements));
      // Fields the text may not state are nullable; enums come from the invite vocabulary.
      expect(fields.properties.seniority_level.anyOf).toEqual([
        { type: 'string', enum: ['Entry', 'Mid', 'Senior', 'Lead', 'Principal', 'Staff'] },
        { type: 'null' },
      ]);
      expect(fields.properties.min_experience.anyOf).toEqual([{ type: 'number' }, { type: 'null' }]);
      expect(fields.properties.skills_required).toMatchObject({ type: 'array', items: { type: 'string' } });
    });

    it('passes on the verdict that a text is not a job description, dropping anything else', async () => {
      next = [answer({ is_job_description: false, requirements })];
      expect(await model().parseJobDescription('A recipe for lemon chicken.')).toEqual({ is_job_description: false, requirements: null });
    });

    it.each([
      ['a refusal', completion({ refusal: "I can't help with that." }), 'refusal'],
      ['output that is not JSON', completion({ content: '{"is_job_description": tr' }), 'malformed_output'],
      [
        'an enum value outside the vocabulary',
        completion({ content: JSON.stringify({ is_job_description: true, requirements: { ...requirements, work_type: 'Remote-first' } }) }),
        'malformed_output',
      ],
      [
        'a job description without requirements',
        completion({ content: JSON.stringify({ is_job_description: true, requirements: null }) }),
        'malformed_output',
      ],
      [
        'a range upside down',
        completion({ content: JSON.stringify({ is_job_description: true, requirements: { ...requirements, max_experience: 2 } }) }),
        'malformed_output',
      ],
    ])('turns %s into a typed error', async (_name, body, code) => {
      next = [{ status: 200, body }];
      expect(await failure(model().parseJobDescription(ad))).toMatchObject({ detail: expect.objectContaining({ code }) });
    });

    it('reports a 429 and a 500 from the model as retryable', async () => {
      next = [{ status: 429, body: apiError('Rate limit reached for gpt-4o-mini.', 'requests', 'rate_limit_exceeded') }];
      expect(await failure(model().parseJobDescription(ad))).toMatchObject({
        detail: expect.objectContaining({ code: 'rate_limited' }),
        retryable: true,
      });
      next = [{ status: 500, body: apiError('The server had an error while processing your request.', 'server_error', null) }];
      expect(await failure(model().parseJobDescription(ad))).toMatchObject({
        detail: expect.objectContaining({ code: 'unavailable' }),
        retryable: true,
      });
    });
  });

  describe('generate-script', () => {
    const brief = {
      ...job,
      company: 'Acme Payments',
      goal: 'screening' as const,
      extract_variables: [{ label: 'notice_period', type: 'string' as const, description: 'Notice period in weeks' }],
    };

    it('asks for a script that uses only built-in variables and the data to collect', async () => {
      const script = {
        first_message: 'Hi {{candidate_first_name}}, this is an AI assistant from Acme Payments.',
        instructions: 'You are calling {{candidate_full_name}}.',
      };
      next = [{ status: 200, body: completion({ content: JSON.stringify(script) }) }];
      expect(await model().generateScript(brief)).toEqual(script);
      const { body } = stub.requests[0];
      expect(body.response_format.json_schema.name).toBe('call_script');
      expect(body.messages[0].content).toContain('{{candidate_first_name}}');
      expect(body.messages[0].content).toContain('The company is Acme Payments.');
      expect(body.messages[1].content).toContain('Call goal: screening');
      expect(body.messages[1].content).toContain('- notice_period (string): Notice period in weeks');
    });

    it('rejects a script with a placeholder call/initiate would refuse', async () => {
      next = [
        { status: 200, body: completion({ content: JSON.stringify({ first_message: 'Hi {{first_name}}', instructions: 'Be kind.' }) }) },
      ];
      expect(await failure(model().generateScript(brief))).toMatchObject({
        detail: expect.objectContaining({ code: 'malformed_output' }),
        message: expect.stringContaining('{{first_name}}'),
      });
    });
  });
});
