import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStack, type Stack } from '../helpers/stack';
import { startHttpStub, type HttpStub, type StubReply } from '../helpers/http-stub';
import { budget } from '../helpers/rate-limit';
import { apiError, completion } from '../helpers/openai-wire';

const PARSE = '/api/public/v1/ai/parse-jd';
const adText = readFileSync(join(__dirname, '..', 'fixtures', 'job-descriptions', '01-senior-backend-engineer.md'), 'utf8');

describe('AI operations on an OpenAI-compatible server', () => {
  let stub: HttpStub;
  let stack: Stack;
  let next: StubReply[] = [];
  const requirements = {
    min_experience: 5,
    max_experience: null,
    seniority_level: 'Senior',
    work_type: 'Hybrid',
    employment_type: 'Full Time',
    location: 'Berlin',
    skills_required: ['Go'],
    skills_good_to_have: [],
  };
  beforeAll(async () => {
    stub = await startHttpStub(
      () => next.shift() ?? { status: 200, body: completion({ content: JSON.stringify({ is_job_description: true, requirements }) }) },
    );
    stack = await startStack({
      env: {
        OPENAI_API_KEY: 'sk-test-secret-value',
        OPENAI_BASE_URL: `${stub.url}/v1`,
        OPENAI_MAX_RETRIES: '0',
        OPENAI_TIMEOUT_MS: '2000',
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await stub?.close();
  });

  it('returns the model’s validated answer', async () => {
    const { key } = await stack.newWorkspace();
    const res = await stack.request('POST', PARSE, { key, body: { job_description: adText } });
    expect(res.body).toEqual({ success: true, message: 'Job requirements parsed successfully', data: requirements });
    expect(stub.requests.at(-1)!.body.messages[1].content).toBe(adText);
  });

  it.each([
    [
      'an outage',
      { status: 500, body: apiError('The server had an error', 'server_error', null) },
      503,
      'The language model is unavailable right now; please try again later.',
    ],
    [
      'a rate limit',
      { status: 429, body: apiError('Rate limit reached', 'requests', 'rate_limit_exceeded') },
      503,
      'The language model is unavailable right now; please try again later.',
    ],
    [
      'malformed output',
      { status: 200, body: completion({ content: '{"is_job_description": tru' }) },
      502,
      'The language model returned an unusable answer; please try again.',
    ],
    [
      'a rejected key',
      { status: 401, body: apiError('Incorrect API key provided: sk-test-****alue', 'invalid_request_error', 'invalid_api_key') },
      502,
      'The language model could not process the request.',
    ],
  ])('answers %s cleanly and gives the budget back', async (_name, reply, status, message) => {
    const { key } = await stack.newWorkspace();
    next = [reply as StubReply];
    const res = await stack.request('POST', PARSE, { key, body: { job_description: adText } });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ success: false, message });
    expect(budget(res.headers).remaining).toBe('5');
  });

  it('answers a refusal with 422 on job_description, which spends the budget', async () => {
    const { key } = await stack.newWorkspace();
    next = [{ status: 200, body: completion({ refusal: "I can't help with that." }) }];
    const res = await stack.request('POST', PARSE, { key, body: { job_description: adText } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'job_description', message: 'was declined by the language model' }]);
    expect(budget(res.headers).remaining).toBe('4');
  });
});
