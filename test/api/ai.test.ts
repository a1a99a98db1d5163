import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { startStack, type Stack } from '../helpers/stack';
import { startHttpStub, type HttpStub, type StubReply } from '../helpers/http-stub';
import { apiError, completion } from '../helpers/openai-wire';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import { createApiKey } from '../../infra/workspaces';
import { startApi, type RunningApi } from '../../api/server';
import { buildApiDeps } from '../../composition/service';
import { extractJobRequirements } from '../../shared/ai/jd-extractor';
import { CustomQuestion } from '../../shared/interviews/schema';
import { GenerateQuestionsResponse, GenerateScriptResponse, ParseJdResponse } from '../../shared/ai/schema';
import { unknownVariables } from '../../shared/template-variables';

const PARSE = '/api/public/v1/ai/parse-jd';
const QUESTIONS = '/api/public/v1/ai/generate-questions';
const SCRIPT = '/api/public/v1/ai/generate-script';
const adText = readFileSync(join(__dirname, '..', 'fixtures', 'job-descriptions', '01-senior-backend-engineer.md'), 'utf8');
const recipe = readFileSync(join(__dirname, '..', 'fixtures', 'not-job-descriptions', '01-recipe.txt'), 'utf8');
const job = {
  job_title: 'Senior Backend Engineer',
  job_description: 'Build the routing services behind same-day deliveries, in Go on Kubernetes, with PostgreSQL and Kafka.',
};
const TOO_MANY = { success: false, message: 'Too many requests, please try again later.' };

/** Waits until at least `margin` seconds remain in the current fixed window, so a burst does not straddle two windows. */
async function awayFromWindowEdge(windowSeconds: number, margin: number): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < margin * 1000) await new Promise((r) => setTimeout(r, left + 100));
}

const budget = (headers: Headers) => ({
  limit: headers.get('x-ratelimit-limit'),
  remaining: headers.get('x-ratelimit-remaining'),
  reset: Number(headers.get('x-ratelimit-reset')),
});

describe('AI operations on the real stack (offline model)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.stop());

  it('parses a job description into the spec’s requirements, as the offline parser reads it', async () => {
    const { key } = await stack.newWorkspace();
    const res = await stack.request('POST', PARSE, { key, body: { job_description: adText } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Job requirements parsed successfully',
      data: extractJobRequirements(adText).requirements,
    });
    expect(TypeCompiler.Compile(ParseJdResponse).Check(res.body)).toBe(true);
    expect(res.body.data).toMatchObject({
      min_experience: 5,
      seniority_level: 'Senior',
      work_type: 'Hybrid',
      employment_type: 'Full Time',
      location: 'Berlin, Germany',
    });
    const { limit, remaining, reset } = budget(res.headers);
    expect([limit, remaining]).toEqual(['5', '4']);
    // Epoch seconds of the end of the current minute.
    expect(reset % 60).toBe(0);
    expect(reset * 1000).toBeGreaterThan(Date.now());
    expect(reset * 1000 - Date.now()).toBeLessThanOrEqual(60_000);
    expect(res.headers.get('retry-after')).toBeNull();
  });

  it('answers 200 with success false, and no data, for text that is not a job description', async () => {
    const { key } = await stack.newWorkspace();
    const res = await stack.request('POST', PARSE, { key, body: { job_description: recipe } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: false, message: 'The text is not a recognisable job description' });
    expect(TypeCompiler.Compile(ParseJdResponse).Check(res.body)).toBe(true);
  });

  it.each([
    ['a missing job_description', {}, [{ path: 'job_description', message: expect.stringContaining('required') }]],
    ['an empty job_description', { job_description: '' }, [{ path: 'job_description', message: expect.any(String) }]],
    ['a blank job_description', { job_description: '  \n ' }, [{ path: 'job_description', message: 'must not be blank' }]],
    ['a number', { job_description: 42 }, [{ path: 'job_description', message: expect.stringContaining('string') }]],
    ['an unknown field', { job_description: adText, language: 'en' }, [{ path: 'language', message: expect.any(String) }]],
  ])('refuses %s with 422 in the spec’s shape, without spending the budget', async (_name, body, errors) => {
    const { key } = await stack.newWorkspace();
    const res = await stack.request('POST', PARSE, { key, body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: expect.stringMatching(/^Validation error: /), errors });
    expect(budget(res.headers).remaining).toBe('5');
  });

  it('refuses a body that is not JSON with 400, and a bad key with 401, without spending the budget', async () => {
    const { key } = await stack.newWorkspace();
    const bad = await stack.request('POST', PARSE, { key, raw: '{"job_description": ' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, message: 'Invalid JSON in request body' });
    expect(budget(bad.headers).remaining).toBe('5');
    const unauthorised = await stack.request('POST', PARSE, { key: 'hk_not-a-key', body: { job_description: adText } });
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.body).toEqual({ success: false, message: 'Unauthorized. Please contact support at help@hiring.test.' });
    expect((await stack.request('POST', PARSE, { key, body: { job_description: adText } })).headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('generates interview questions in the shape invite accepts as custom questions', async () => {
    const { key } = await stack.newWorkspace();
    const check = TypeCompiler.Compile(CustomQuestion);
    const three = await stack.request('POST', QUESTIONS, {
      key,
      body: { ...job, seniority_level: 'Senior', skills_required: ['Go', 'Kubernetes', 'PostgreSQL'], count: 3 },
    });
    expect(three.status).toBe(200);
    expect(three.body.success).toBe(true);
    expect(three.body.data.questions).toHaveLength(3);
    expect(TypeCompiler.Compile(GenerateQuestionsResponse).Check(three.body)).toBe(true);
    for (const q of three.body.data.questions) expect(check.Check(q)).toBe(true);
    expect(three.body.data.questions[1].question).toContain('Go');

    // Without a skill list, the skills named in the description still get questions; 8 by default.
    const defaults = await stack.request('POST', QUESTIONS, { key, body: job });
    expect(defaults.body.data.questions).toHaveLength(8);
    expect(defaults.body.data.questions.map((q: { question: string }) => q.question).join(' ')).toContain('Kubernetes');
  });

  it.each([
    ['count above 20', { ...job, count: 21 }, 'count'],
    ['count of 0', { ...job, count: 0 }, 'count'],
    ['a seniority outside the vocabulary', { ...job, seniority_level: 'Junior' }, 'seniority_level'],
    ['an experience range upside down', { ...job, min_experience: 5, max_experience: 3 }, 'max_experience'],
    ['a missing job_title', { job_description: job.job_description }, 'job_title'],
  ])('refuses generate-questions with %s', async (_name, body, path) => {
    const { key } = await stack.newWorkspace();
    const res = await stack.request('POST', QUESTIONS, { key, body });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path, message: expect.any(String) }]);
  });

  it('writes a call script that call/initiate accepts as it is', async () => {
    const { key } = await stack.newWorkspace();
    const extract = [
      {
        label: 'notice_period',
        type: 'single_select',
        description: 'How long is your notice period?',
        choices: ['none', '1 month', '3 months'],
      },
      { label: 'years_with_go', type: 'integer', description: 'Years of professional Go' },
    ];
    const res = await stack.request('POST', SCRIPT, {
      key,
      body: { ...job, company: 'Parcelio', call_goal: 'screening', skills_required: ['Go', 'Kafka'], extract_variables: extract },
    });
    expect(res.status).toBe(200);
    expect(TypeCompiler.Compile(GenerateScriptResponse).Check(res.body)).toBe(true);
    const { first_message, instructions } = res.body.data;
    expect(first_message).toContain('{{candidate_first_name}}');
    expect(first_message).toContain('Parcelio');
    expect(instructions).toContain('hands-on experience with Kafka');
    expect(instructions).toContain(
      '- notice_period: How long is your notice period? Record it as exactly one of: none, 1 month, 3 months.',
    );
    expect(unknownVariables(first_message + instructions)).toEqual([]);

    const campaign = await stack.request('POST', '/api/public/v1/campaigns', {
      key,
      body: { ats_job_id: 'script-job', name: 'Backend', company_name: 'Parcelio' },
    });
    expect(campaign.status).toBeLessThan(300);
    const call = await stack.request('POST', '/api/public/v1/call/initiate', {
      key,
      body: {
        ats_job_id: 'script-job',
        first_message,
        instructions,
        extract_variables: extract,
        candidates: [{ id: 'c-1', name: 'Ada Lovelace', email: 'ada@example.com', phone: '+14155550100' }],
      },
    });
    expect(call.status).toBe(200);
    expect(call.body.data.calls[0].status).toBe('success');
  });

  it('keeps caller text from reading as a template variable, and checks extract_variables like call/initiate', async () => {
    const { key } = await stack.newWorkspace();
    const res = await stack.request('POST', SCRIPT, {
      key,
      body: { job_title: 'Engineer {{salary}}', job_description: 'Pay is {{salary}} a year.' },
    });
    expect(res.status).toBe(200);
    expect(unknownVariables(res.body.data.first_message + res.body.data.instructions)).toEqual([]);
    expect(res.body.data.first_message).toContain('{{sender_company}}');

    const invalid = await stack.request('POST', SCRIPT, {
      key,
      body: { ...job, call_goal: 'chat', extract_variables: [{ label: 'x', type: 'single_select', description: 'd' }] },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['call_goal', 'extract_variables[0].choices']);
  });

  it('serves every operation under /ai too, on the same budget', async () => {
    const { key } = await stack.newWorkspace();
    const short = await stack.request('POST', '/ai/parse-jd', { key, body: { job_description: adText } });
    const long = await stack.request('POST', PARSE, { key, body: { job_description: adText } });
    expect([short.status, long.status]).toEqual([200, 200]);
    expect([budget(short.headers).remaining, budget(long.headers).remaining]).toEqual(['4', '3']);
    expect((await stack.request('POST', '/ai/generate-questions', { key, body: job })).status).toBe(200);
    expect((await stack.request('POST', '/ai/generate-script', { key, body: job })).status).toBe(200);
    expect((await stack.request('GET', '/ai/parse-jd', { key })).status).toBe(405);
  });

  it('does not rate-limit other endpoints', async () => {
    const { key } = await stack.newWorkspace();
    for (let i = 0; i < 7; i++) {
      const res = await stack.request('GET', '/api/public/v1/interviews/int_missing', { key });
      expect(res.status).toBe(404);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});

describe('AI rate limit across API processes', () => {
  let stack: Stack;
  let secondDb: Database;
  let second: RunningApi;
  beforeAll(async () => {
    stack = await startStack();
    // A second API process: its own server and its own database connection, the same database.
    secondDb = await connectDatabase(stack.config.MONGODB_URI, stack.config.MONGODB_DB);
    second = await startApi(
      buildApiDeps(stack.config, { db: secondDb, temporal: stack.temporal, logger: createLogger('silent') }),
      0,
      '127.0.0.1',
    );
  });
  afterAll(async () => {
    await second?.stop(1_000);
    await secondDb?.close();
    await stack?.stop();
  });

  const post = (base: string, path: string, key: string, body: unknown) =>
    fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': key },
      body: JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: await res.json(), headers: res.headers }));

  it.each([
    ['parse-jd', PARSE, { job_description: adText }],
    ['generate-questions', QUESTIONS, job],
    ['generate-script', SCRIPT, job],
  ])('lets exactly 5 of 20 concurrent %s requests through, from two keys via two processes', async (_name, path, body) => {
    const ws = await stack.newWorkspace('Limited');
    const otherKey = (await createApiKey(stack.db, ws.id)).api_key;
    await awayFromWindowEdge(60, 15);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(i % 2 ? second.url : stack.url, path, i % 4 < 2 ? ws.key : otherKey, body)),
    );
    const passed = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(passed).toHaveLength(5);
    expect(refused).toHaveLength(15);
    expect(passed.map((r) => r.headers.get('x-ratelimit-remaining')).sort()).toEqual(['0', '1', '2', '3', '4']);
    for (const r of refused) {
      expect(r.body).toEqual(TOO_MANY);
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(budget(r.headers)).toMatchObject({ limit: '5', remaining: '0' });
    }

    // Another workspace has its own budget; so does another operation of the same workspace.
    const other = await stack.newWorkspace('Unaffected');
    expect((await post(second.url, path, other.key, body)).status).toBe(200);
    const elsewhere = path === PARSE ? [QUESTIONS, job] : [PARSE, { job_description: adText }];
    expect((await post(stack.url, elsewhere[0] as string, ws.key, elsewhere[1])).status).toBe(200);
  });
});

describe('AI rate limit window', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { AI_RATE_LIMIT_WINDOW_SECONDS: '2', AI_RATE_LIMIT: '3' } });
  });
  afterAll(() => stack?.stop());

  it('starts a fresh budget when the window ends, as Retry-After says', async () => {
    const { key } = await stack.newWorkspace();
    let refused: Awaited<ReturnType<Stack['request']>> | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      const res = await stack.request('POST', PARSE, { key, body: { job_description: adText } });
      if (res.status === 429) refused = res;
    }
    expect(refused).toBeDefined();
    const wait = Number(refused!.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(2);
    await new Promise((r) => setTimeout(r, Number(refused!.headers.get('x-ratelimit-reset')) * 1000 - Date.now() + 50));
    const after = await stack.request('POST', PARSE, { key, body: { job_description: adText } });
    expect(after.status).toBe(200);
    expect(budget(after.headers)).toMatchObject({ limit: '3', remaining: '2' });
  });
});

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
