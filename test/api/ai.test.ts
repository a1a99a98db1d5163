import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { startStack, type Stack } from '../helpers/stack';
import { extractJobRequirements } from '../../shared/ai/jd-extractor';
import { CustomQuestion } from '../../shared/interviews/schema';
import { GenerateQuestionsResponse, GenerateScriptResponse, ParseJdResponse } from '../../shared/ai/schema';
import { budget } from '../helpers/rate-limit';
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
