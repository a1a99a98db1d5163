import fc from 'fast-check';
import { startStack, type Stack } from './stack';
import { contractProblems } from './api-contract';
import { APP_SECRET, VAPI_SECRET, JOB, DOCUMENTED, type Sent, contentType, requestId, queryString } from './fuzz-requests';

/** What a fuzz file's test sees of its stack: the workspace's key, the sender and the checks of every answer. */
export interface FuzzStack {
  readonly key: string;
  readonly requests: { count: number };
  send(s: Sent): Promise<Answer>;
  /** The answer's status is documented and its body has its family's shape, with nothing of our internals. */
  expectDocumented(s: Sent, res: Answer): void;
  /** Documents per collection of the file's own database (the fuzz files each have one). */
  counts(): Promise<Record<string, number>>;
}

export interface Answer {
  status: number;
  text: string;
  contentType: string;
  headers: Headers;
}

/** The parts of a request every generator shares: content type, request id and query string. */
export const common = fc.record({ ct: contentType, rid: requestId, q: queryString });
export const headersOf = (c: { ct: string; rid?: string }) => ({
  ...(c.ct ? { 'content-type': c.ct } : {}),
  ...(c.rid !== undefined ? { 'x-request-id': c.rid } : {}),
});

/**
 * Starts the real API, worker and database for one fuzz file (in its beforeAll, stopped in its afterAll),
 * with a workspace and a campaign for the generated requests to name. The fuzzing is split over files
 * (test/api/fuzz-*.test.ts) so that none runs for more than its budget; each file sends its own share.
 */
export function fuzzStack(): FuzzStack {
  let stack: Stack;
  let key = '';
  const requests = { count: 0 };

  beforeAll(async () => {
    stack = await startStack({
      env: {
        VAPI_WEBHOOK_SECRET: VAPI_SECRET,
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: 'fuzz-verify',
        AI_RATE_LIMIT: '1000',
      },
    });
    key = (await stack.newWorkspace('Fuzz')).key;
    expect((await stack.request('POST', '/api/public/v1/campaigns', { key, body: { ats_job_id: JOB, name: 'Fuzz' } })).status).toBe(201);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  return {
    get key() {
      return key;
    },
    requests,
    async send(s) {
      requests.count++;
      const res = await fetch(stack.url + s.path, {
        method: s.method,
        headers: s.headers,
        body: s.method === 'GET' || s.method === 'HEAD' ? undefined : s.raw,
      });
      return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '', headers: res.headers };
    },
    expectDocumented,
    async counts() {
      const names = (await stack.db.db.listCollections().toArray()).map((c) => c.name).sort();
      return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await stack.db.db.collection(n).countDocuments()] as const)));
    },
  };
}

function expectDocumented(s: Sent, res: Answer): void {
  const where = `${s.method} ${s.path} ${JSON.stringify(s.headers)} ${String(s.raw).slice(0, 300)}`;
  let parsed: unknown = res.text;
  try {
    parsed = JSON.parse(res.text);
  } catch {
    /* a body that is not JSON is caught below */
  }
  expect({ where, problems: contractProblems(s.method, s.path, res.status, res.headers, parsed) }).toEqual({ where, problems: [] });
  expect({ where, status: res.status, documented: DOCUMENTED.has(res.status) }).toEqual({ where, status: res.status, documented: true });
  expect(res.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|Mongo[A-Z]\w*Error|TypeError|ReferenceError/);
  if (s.method === 'HEAD' || s.method === 'OPTIONS' || res.status === 204) return;
  expect({ where, type: res.contentType }).toEqual({ where, type: expect.stringMatching(/^application\/json/) });
  const body = JSON.parse(res.text);
  if (s.path.split('?')[0] === '/healthz') return;
  expect({ where, success: typeof body.success }).toEqual({ where, success: 'boolean' });
  if (res.status < 400) return;
  expect({ where, body }).toEqual({ where, body: expect.objectContaining({ success: false, message: expect.any(String) }) });
  const family = DOCUMENTED.has(res.status) && res.status !== 405 && res.status !== 404 ? s.endpoint.family : 'plain';
  if (family === 'calls' && res.status === 400) {
    expect({ where, body }).toEqual({
      where,
      body: expect.objectContaining({
        code: 'VALIDATION_ERROR',
        errors: expect.arrayContaining([{ field: expect.any(String), message: expect.any(String) }]),
      }),
    });
  }
  if (family === 'calls' && res.status === 401) expect(body).toMatchObject({ error: 'INVALID_API_KEY' });
  if (family === 'jobs' && res.status === 422) {
    expect({ where, body }).toEqual({
      where,
      body: expect.objectContaining({ errors: expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]) }),
    });
  }
}
