import { OpenAiLanguageModel } from '../../providers/llm/openai';
import { OpenAiTranscriber } from '../../providers/transcription/openai';
import { transcriber } from '../../composition/providers';
import { UpstreamError } from '../../shared/errors';
import type { AnswerToAssess } from '../../shared/interviews/assessment';
import { jobDetails } from '../helpers/job';
import { startHttpStub, type HttpStub, type StubReply } from '../helpers/http-stub';
import { testConfig } from '../helpers/stack';
import { apiError, completion } from '../helpers/openai-wire';

const job = jobDetails({
  title: 'Site Reliability Engineer',
  skills_required: ['Linux', 'Kubernetes', 'Go'],
  skills_good_to_have: ['Terraform'],
});
const answers: AnswerToAssess[] = [
  {
    index: 0,
    question: 'How would you cut p99 latency?',
    type: 'text',
    answered: true,
    text: 'Profile the Go service, then cache.',
    missing: null,
  },
  {
    index: 1,
    question: 'Tell us about an outage.',
    type: 'audio',
    answered: true,
    text: null,
    missing: 'The recording could not be transcribed',
  },
  {
    index: 2,
    question: 'Describe a Kubernetes upgrade.',
    type: 'video',
    answered: true,
    text: 'We drained nodes pool by pool.',
    missing: null,
  },
];
const assessment = {
  answers: [
    { index: 0, score: 4, skills: ['Go', 'Rust'], evidence: ['Profile the Go service'] },
    { index: 2, score: 3, skills: ['kubernetes'], evidence: ['drained nodes pool by pool'] },
  ],
  summary: 'Practical and specific.',
};
const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from('opus-frames')]);

describe("OpenAI adapters for interviews, against local servers speaking OpenAI's wire format", () => {
  let stub: HttpStub;
  let next: StubReply[] = [];
  beforeAll(async () => {
    stub = await startHttpStub((req) => next.shift() ?? defaultReply(req.path));
  });
  afterAll(() => stub?.close());
  beforeEach(() => {
    stub.requests.length = 0;
    next = [];
  });
  const defaultReply = (path: string): StubReply =>
    path === '/v1/audio/transcriptions'
      ? { status: 200, body: { text: ' We rolled back the deploy within ten minutes. ', usage: { type: 'duration', seconds: 9 } } }
      : { status: 200, body: completion({ content: JSON.stringify(assessment) }) };
  const options = { apiKey: 'sk-test-secret', timeoutMs: 2_000, maxRetries: 0 };
  const model = () => new OpenAiLanguageModel({ ...options, baseUrl: `${stub.url}/v1`, model: 'gpt-4o-mini' });
  const hearing = () => new OpenAiTranscriber({ ...options, baseUrl: `${stub.url}/v1`, model: 'gpt-4o-mini-transcribe' });

  it('says who it is as an assessor: OpenAI, the model configured, and the version of its instructions', () => {
    expect(model().assessor).toEqual({
      kind: 'openai',
      model: 'gpt-4o-mini',
      prompt_version: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('assesses only the answers with text, as JSON in a fence with a new nonce, keeping only skills the job names', async () => {
    expect(await model().assessInterview(job, answers)).toEqual({
      questions: [
        { index: 0, score: 4, skills: ['Go'], evidence: ['Profile the Go service'] },
        { index: 2, score: 3, skills: ['kubernetes'], evidence: ['drained nodes pool by pool'] },
      ],
      summary: 'Practical and specific.',
    });
    const [req] = stub.requests;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.body.response_format.json_schema).toMatchObject({ name: 'interview_assessment', strict: true });
    // The model judges answers only: the overall score and recommendation are computed from its scores.
    expect(req.body.response_format.json_schema.schema.required).toEqual(['answers', 'summary']);
    const input = req.body.messages[1].content as string;
    expect(input).toContain('Required skills: Linux, Kubernetes, Go');
    const fence = /<answers-([0-9a-f]{24})>\n([\s\S]*)\n<\/answers-\1>/.exec(input);
    expect(fence).not.toBeNull();
    expect(req.body.messages[0].content).toContain(`<answers-${fence![1]}>`);
    expect(JSON.parse(fence![2])).toEqual([
      { index: 0, question: 'How would you cut p99 latency?', answer: 'Profile the Go service, then cache.' },
      { index: 2, question: 'Describe a Kubernetes upgrade.', answer: 'We drained nodes pool by pool.' },
    ]);
    // A new nonce for every request: no answer can know the line that closes its fence.
    await model().assessInterview(job, answers);
    expect(stub.requests[1].body.messages[1].content).not.toContain(fence![1]);
  });

  it('refuses an assessment that scores other answers than those sent, or breaks the schema, as retryable', async () => {
    next = [{ status: 200, body: completion({ content: JSON.stringify({ ...assessment, answers: assessment.answers.slice(0, 1) }) }) }];
    const missing = await model()
      .assessInterview(job, answers)
      .catch((e: unknown) => e as UpstreamError);
    expect(missing).toBeInstanceOf(UpstreamError);
    expect(missing).toMatchObject({ retryable: true, message: 'The model answer is unusable: answers for questions 0 instead of 0, 2' });
    next = [
      {
        status: 200,
        body: completion({
          content: JSON.stringify({ ...assessment, answers: [{ ...assessment.answers[0], score: 6 }, assessment.answers[1]] }),
        }),
      },
    ];
    const outOfRange = await model()
      .assessInterview(job, answers)
      .catch((e: unknown) => e as UpstreamError);
    expect(outOfRange).toMatchObject({ retryable: true, message: expect.stringContaining('/answers/0/score') });
  });

  it('uploads a recording as multipart with its container in the file name, and returns the trimmed text', async () => {
    expect(await hearing().transcribe({ bytes: WEBM, type: 'audio/webm' })).toBe('We rolled back the deploy within ten minutes.');
    const [req] = stub.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/audio/transcriptions');
    expect(req.headers.authorization).toBe('Bearer sk-test-secret');
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(req.raw).toMatch(/name="model"\r\n\r\ngpt-4o-mini-transcribe\r\n/);
    expect(req.raw).toMatch(/name="file"; filename="answer\.webm"\r\nContent-Type: audio\/webm\r\n\r\n/);
    expect(req.raw).toContain('opus-frames');
  });

  it('reports a rate limit as retryable and a rejected file as final', async () => {
    next = [{ status: 429, body: apiError('Rate limit reached', 'requests', 'rate_limit_exceeded') }];
    expect(
      await hearing()
        .transcribe({ bytes: WEBM, type: 'audio/webm' })
        .catch((e: unknown) => e),
    ).toMatchObject({ retryable: true });
    next = [{ status: 400, body: apiError('Invalid file format.', 'invalid_request_error', null) }];
    const rejected = await hearing()
      .transcribe({ bytes: WEBM, type: 'video/mp4' })
      .catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(UpstreamError);
    expect(rejected).toMatchObject({ retryable: false });
    expect(stub.requests[1].raw).toContain('filename="answer.mp4"');
  });

  it('is there only when OPENAI_API_KEY is set, with the transcription model setting', () => {
    expect(transcriber(testConfig({}))).toBeNull();
    expect(transcriber(testConfig({ OPENAI_API_KEY: 'sk-x', OPENAI_TRANSCRIBE_MODEL: 'whisper-1' }))).toBeInstanceOf(OpenAiTranscriber);
  });
});
