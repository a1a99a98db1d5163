import { startStack, type Stack } from '../helpers/stack';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { waitFor } from '../helpers/wait';

const V1 = '/api/public/v1';
/** The AI limit's window (AI_RATE_LIMIT_WINDOW_SECONDS' default): the test moves the limits' clock across it. */
const WINDOW_SECONDS = 60;

/**
 * The AI budget (two requests a window here) spent by the question generation of an invitation, on the real
 * stack: what test/api/abuse-limits.test.ts checks of the other workspace budgets, for the one an accepted
 * invitation waits for instead of being refused.
 */
describe('the AI budget and invitations', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      worker: true,
      env: { SIMULATOR_CALL_SECONDS: '0', AI_RATE_LIMIT: '2' },
    });
  });
  afterAll(() => stack?.stop());
  afterEach(() => stack?.limits.release());
  const post = async (path: string, key: string, body?: unknown) => {
    const res = await fetch(stack.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': key },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };

  it('spends the AI budget on the questions of a new ats_job_id, and an accepted invitation waits for the budget', async () => {
    const ws = await stack.newWorkspace('Askco');
    // The limits' clock held in a window of its own: the API's requests and the worker's generations count in it.
    stack.limits.hold(WINDOW_SECONDS);
    const invite = (job: string, extra: Record<string, unknown> = {}) =>
      post(`${V1}/interview/invite`, ws.key, inviteBody([inviteCandidate(1)], { ats_job_id: job, ...extra }));
    const questionsOf = async (job: string) =>
      (await stack.db.projects.findOne({ workspace_id: ws.id, ats_job_id: job }))?.question_set ?? null;
    expect((await invite('new-1')).status).toBe(200);
    await waitFor(() => questionsOf('new-1'), Boolean, 15_000);
    // The caller's own questions and a known job generate nothing.
    expect((await invite('own', { questions: [{ question: 'Why us?', type: 'text', time_limit_seconds: 60 }] })).status).toBe(200);
    expect((await invite('new-1', { candidates: [inviteCandidate(2)] })).status).toBe(200);
    // The generation took one of the two: the endpoint has one left, and takes it.
    const generate = () =>
      post(`${V1}/ai/generate-questions`, ws.key, {
        job_title: 'Baker',
        job_description: 'Bake bread at dawn for our shop.',
      });
    const last = await generate();
    expect(last.status).toBe(200);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    // A new job now is accepted, and its questions wait for the next window instead of passing the limit.
    const waiting = await invite('new-2');
    expect(waiting.status).toBe(200);
    expect(waiting.body.data.interviews[0].status).toBe('success');
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await questionsOf('new-2')).toBeNull();
    // The window ends (the clock moves to the reset the API gave): the waiting generation takes the next one.
    const reset = Number(last.headers.get('x-ratelimit-reset')) * 1000;
    stack.limits.advance(reset - stack.limits.now().getTime());
    await waitFor(() => questionsOf('new-2'), Boolean, 45_000);
    expect((await generate()).headers.get('x-ratelimit-remaining')).toBe('0');
  }, 120_000);
});
