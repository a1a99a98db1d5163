import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStack, type Stack } from '../helpers/stack';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import { adminStores } from '../../composition/admin-stores';
import { startApi, type RunningApi } from '../../api/server';
import { budget } from '../helpers/rate-limit';
import { buildApiDeps } from '../../composition/service';
import { buildStores } from '../../composition/stores';

const PARSE = '/api/public/v1/ai/parse-jd';
const QUESTIONS = '/api/public/v1/ai/generate-questions';
const SCRIPT = '/api/public/v1/ai/generate-script';
const adText = readFileSync(join(__dirname, '..', 'fixtures', 'job-descriptions', '01-senior-backend-engineer.md'), 'utf8');
const job = {
  job_title: 'Senior Backend Engineer',
  job_description: 'Build the routing services behind same-day deliveries, in Go on Kubernetes, with PostgreSQL and Kafka.',
};
const TOO_MANY = { success: false, message: 'Too many requests, please try again later.' };

describe('AI rate limit across API processes', () => {
  let stack: Stack;
  let secondDb: Database;
  let second: RunningApi;
  beforeAll(async () => {
    stack = await startStack();
    // A second API process: its own server and its own database connection, the same database.
    secondDb = await connectDatabase(stack.config.MONGODB_URI, stack.config.MONGODB_DB);
    // Its own stores, at the first API's limits' clock: the two count one limit, at one time.
    const stores = buildStores(stack.config, secondDb, stack.temporal, { limitsClock: stack.limits.now });
    second = await startApi(
      buildApiDeps(stack.config, { db: secondDb, temporal: stack.temporal, logger: createLogger('silent'), stores }),
      0,
      '127.0.0.1',
    );
  });
  afterAll(async () => {
    await second?.stop(1_000);
    await secondDb?.close();
    await stack?.stop();
  });
  afterEach(() => stack?.limits.release());

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
    const otherKey = (await adminStores(stack.db).workspaces.createKey(ws.id)).api_key;
    // The 20 requests land in one minute's window however slow the machine is: the limits' clock is held in it.
    stack.limits.hold(60);
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
  afterEach(() => stack?.limits.release());

  it('starts a fresh budget when the window ends, as Retry-After says', async () => {
    const { key } = await stack.newWorkspace();
    // Held in one window, the fourth request is refused however slow the machine; then the clock moves on to
    // the reset the refusal named, and the budget is whole again.
    stack.limits.hold(2);
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<Stack['request']>> | undefined;
    while (!refused && statuses.length < 4) {
      const res = await stack.request('POST', PARSE, { key, body: { job_description: adText } });
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const wait = Number(refused!.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(2);
    stack.limits.advance(Number(refused!.headers.get('x-ratelimit-reset')) * 1000 - stack.limits.now().getTime());
    const after = await stack.request('POST', PARSE, { key, body: { job_description: adText } });
    expect(after.status).toBe(200);
    expect(budget(after.headers)).toMatchObject({ limit: '3', remaining: '2' });
  });
});
