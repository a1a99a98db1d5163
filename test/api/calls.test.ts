import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

const job = 'job-42';
const candidate = (i: number, extra: Record<string, unknown> = {}) => ({
  id: `c-${i}`,
  name: `  ada LOVELACE ${i} `.replace(/ (\d+) $/, ' the$1th'),
  email: `Ada.${i}@Example.COM`,
  phone: `+1415555${String(1000 + i).padStart(4, '0')}`,
  ...extra,
});
const body = (candidates: unknown[], extra: Record<string, unknown> = {}) => ({
  ats_job_id: job,
  candidates,
  instructions: 'You are recruiting for {{sender_company}}. Ask {{candidate_first_name}} about availability.',
  first_message: 'Hi {{candidate_first_name}}, this is {{sender_first_name}}',
  extract_variables: [
    { label: 'available', type: 'boolean', description: 'Is the candidate available?' },
    { label: 'notice', type: 'single_select', description: 'Notice period', choices: ['none', '1 month'] },
  ],
  ...extra,
});

describe('call/initiate on the real stack', () => {
  let stack: Stack;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '0' } });
    key = (await stack.newWorkspace('Acme')).key;
    // Every test below calls into this campaign; none depends on another having run.
    const campaign = await stack.request('POST', '/api/public/v1/campaigns', {
      key,
      body: { ats_job_id: job, name: 'Backend hiring', company_name: 'Acme Robotics' },
    });
    expect(campaign.status).toBe(201);
  });
  afterAll(() => stack?.stop());

  it('creates a campaign once and returns it afterwards', async () => {
    const first = await stack.request('POST', '/api/public/v1/campaigns', {
      key,
      body: { ats_job_id: 'job-once', name: 'Backend hiring', company_name: 'Acme Robotics' },
    });
    expect(first.status).toBe(201);
    expect(first.body.data.project_url).toBe(`https://hiring.test/projects/${first.body.data.project_id}`);
    const again = await stack.request('POST', '/api/public/v1/campaigns', { key, body: { ats_job_id: 'job-once', name: 'Other name' } });
    expect(again.status).toBe(200);
    expect(again.body.data.project_id).toBe(first.body.data.project_id);
  });

  it('rejects an unknown ats_job_id with a 400 naming the field', async () => {
    const res = await stack.request('POST', '/api/public/v1/call/initiate', { key, body: { ...body([candidate(1)]), ats_job_id: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR', message: 'Request validation failed' });
    expect(res.body.errors).toEqual([{ field: 'ats_job_id', message: expect.stringContaining('does not match any campaign project') }]);
  });

  it('calls 50 candidates in request order, normalised, and every call completes through the simulator', async () => {
    const candidates = Array.from({ length: 50 }, (_, i) => candidate(i));
    const res = await stack.request('POST', '/api/public/v1/call/initiate', { key, body: body(candidates) });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.calls.map((c: { candidate_id: string }) => c.candidate_id)).toEqual(candidates.map((c) => c.id));
    expect(res.body.data.calls[7]).toMatchObject({
      name: 'Ada Lovelace The7th',
      email: 'ada.7@example.com',
      status: 'success',
      message: 'Call scheduled',
    });
    const ids: string[] = res.body.data.calls.map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(50);
    const done = await waitFor(
      () => stack.db.calls.countDocuments({ _id: { $in: ids }, status: 'completed' }),
      (n) => n === 50,
      60_000,
    );
    expect(done).toBe(50);
    const view = await stack.request('GET', `/api/public/v1/calls/${ids[3]}`, { key });
    expect(view.body.data).toMatchObject({
      id: ids[3],
      candidate_id: 'c-3',
      status: 'completed',
      extracted_variables: { available: true, notice: 'none' },
      attempts: [{ number: 1, outcome: 'completed', failure_reason: null }],
    });
    // The workspace's default disclosure comes first (docs/contact-rules.md).
    expect(view.body.data.transcript[0].text).toBe(
      'Hello, this is an automated AI assistant calling on behalf of Acme Robotics. This call is recorded. Hi Ada, this is Ada',
    );
    const stored = await stack.db.calls.findOne({ _id: ids[3] });
    expect(stored?.instructions).toBe('You are recruiting for Acme Robotics. Ask Ada about availability.');
  }, 90_000);

  it('fails a duplicate id inside one request and a candidate with an active call, without dialling twice', async () => {
    const slow = candidate(100, { custom_fields: { simulated_outcomes: 'missed' } });
    const settings = {
      call_settings: { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 1, unit: 'days' }] } },
    };
    const res = await stack.request('POST', '/api/public/v1/call/initiate', { key, body: body([slow, slow], settings) });
    expect(res.body.data.calls[0].status).toBe('success');
    expect(res.body.data.calls[1]).toMatchObject({
      id: null,
      status: 'failed',
      message: expect.stringContaining('Duplicate candidate id'),
    });
    // The first call waits a day for its retry, so it is still active: a retried request must not add a call.
    const waiting = await waitFor(
      () => stack.db.calls.findOne({ _id: res.body.data.calls[0].id }),
      (c) => c?.attempts.length === 1 && c.status === 'scheduled',
    );
    expect(waiting).toMatchObject({ status: 'scheduled', attempts: [{ number: 1, outcome: 'failed', failure_reason: 'missed' }] });
    const retried = await stack.request('POST', '/api/public/v1/call/initiate', { key, body: body([slow], settings) });
    expect(retried.body.success).toBe(false);
    expect(retried.body.data.calls[0]).toMatchObject({
      id: null,
      status: 'failed',
      message: expect.stringContaining('already has an active call'),
    });
    expect(await stack.db.calls.countDocuments({ candidate_id: 'c-100' })).toBe(1);
  });

  it('places one call when many identical requests for a new candidate arrive at once', async () => {
    const one = candidate(200, { custom_fields: { simulated_outcomes: 'missed' } });
    const settings = {
      call_settings: { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 1, unit: 'days' }] } },
    };
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => stack.request('POST', '/api/public/v1/call/initiate', { key, body: body([one], settings) })),
    );
    const results = responses.map((r) => r.body.data.calls[0]);
    expect(results.filter((c) => c.status === 'success')).toHaveLength(1);
    for (const c of results.filter((r) => r.status === 'failed')) {
      expect(c.message).toMatch(/already has an active call|being scheduled by a concurrent request/);
    }
    expect(await stack.db.calls.countDocuments({ candidate_id: 'c-200' })).toBe(1);
  });

  it('adds candidates to the same project when the ats_job_id is sent again', async () => {
    const a = await stack.request('POST', '/api/public/v1/call/initiate', { key, body: body([candidate(400)]) });
    const b = await stack.request('POST', '/api/public/v1/call/initiate', { key, body: body([candidate(401)]) });
    expect([a.body.data.calls[0].status, b.body.data.calls[0].status]).toEqual(['success', 'success']);
    expect(a.body.data.project_id).toBe(b.body.data.project_id);
    expect(
      await stack.db.candidates.countDocuments({ project_id: a.body.data.project_id, candidate_id: { $in: ['c-400', 'c-401'] } }),
    ).toBe(2);
  });

  it('hides another workspace’s calls and projects', async () => {
    const other = await stack.newWorkspace('Other');
    const mine = await stack.request('POST', '/api/public/v1/call/initiate', { key, body: body([candidate(300)]) });
    const peek = await stack.request('GET', `/api/public/v1/calls/${mine.body.data.calls[0].id}`, { key: other.key });
    expect(peek.status).toBe(404);
    expect(peek.body).toEqual({ success: false, code: 'NOT_FOUND', message: 'Call not found' });
    const theirs = await stack.request('POST', '/api/public/v1/call/initiate', { key: other.key, body: body([candidate(300)]) });
    expect(theirs.status).toBe(400);
  });

  it('answers a body that is not JSON with the validation shape, and an oversized body with 413', async () => {
    const bad = await stack.request('POST', '/api/public/v1/call/initiate', { key, raw: '{"ats_job_id": ' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      success: false,
      code: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      errors: [{ field: 'body', message: 'Invalid JSON in request body' }],
    });
    const big = await stack.request('POST', '/api/public/v1/call/initiate', {
      key,
      raw: JSON.stringify({ instructions: 'x'.repeat(1_100_000) }),
    });
    expect(big.status).toBe(413);
    expect(big.body.success).toBe(false);
    const unauth = await stack.request('POST', '/api/public/v1/call/initiate', { raw: '{' });
    expect(unauth.status).toBe(401);
  });
});
