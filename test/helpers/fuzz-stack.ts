import fc from 'fast-check';
import { startStack, type Stack } from './stack';
import { contractProblems } from './api-contract';
import { send } from './http-client';
import { APP_SECRET, VAPI_SECRET, JOB, DOCUMENTED, type Sent, contentType, requestId, queryString } from './fuzz-requests';

/** What a fuzz file's test sees of its stack: the workspace's key, the sender and the checks of every answer. */
export interface FuzzStack {
  readonly key: string;
  readonly requests: { count: number };
  send(s: Sent): Promise<Answer>;
  /**
   * The answer's status is documented and its body has its family's shape, with nothing of our internals;
   * `refused`: and its status is a 4xx.
   */
  expectDocumented(s: Sent, res: Answer, opts?: { refused?: boolean }): void;
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
      const res = await send(stack.url + s.path, {
        method: s.method,
        headers: s.headers,
        body: s.method === 'GET' || s.method === 'HEAD' ? undefined : s.raw,
      });
      return { status: res.status, text: res.text, contentType: res.headers.get('content-type') ?? '', headers: res.headers };
    },
    expectDocumented,
    async counts() {
      const names = (await stack.db.db.listCollections().toArray()).map((c) => c.name).sort();
      return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await stack.db.db.collection(n).countDocuments()] as const)));
    },
  };
}

/**
 * One expectation per answer, over every problem found: the fuzz files check 10,500 answers, and each call of
 * `expect` builds its whole set of matchers and an error with its stack (seven calls an answer cost the two
 * files about 6 s of CPU in a profile).
 */
function expectDocumented(s: Sent, res: Answer, opts: { refused?: boolean } = {}): void {
  const problems = documentedProblems(s, res);
  if (opts.refused && !(res.status >= 400 && res.status < 500))
    problems.push(`status ${res.status}, not a refusal (4xx): ${res.text.slice(0, 200)}`);
  const where = `${res.status} ${s.method} ${s.path} ${JSON.stringify(s.headers)} ${String(s.raw).slice(0, 300)}`;
  expect({ where, problems }).toEqual({ where, problems: [] });
}

/** An answer's problems in words: none when its status is documented and its body has its family's shape. */
function documentedProblems(s: Sent, res: Answer): string[] {
  let parsed: unknown = res.text;
  try {
    parsed = JSON.parse(res.text);
  } catch {
    /* a body that is not JSON is caught below */
  }
  const problems = contractProblems(s.method, s.path, res.status, res.headers, parsed);
  if (!DOCUMENTED.has(res.status)) problems.push(`status ${res.status} is not documented`);
  if (/\n\s+at |node_modules|\.ts:\d+|Mongo[A-Z]\w*Error|TypeError|ReferenceError/.test(res.text)) {
    problems.push(`the body shows internals: ${res.text.slice(0, 300)}`);
  }
  if (s.method === 'HEAD' || s.method === 'OPTIONS' || res.status === 204) return problems;
  if (!/^application\/json/.test(res.contentType)) return [...problems, `content type ${JSON.stringify(res.contentType)}, not JSON`];
  if (typeof parsed !== 'object' || parsed === null) return [...problems, `a JSON body that is not an object: ${res.text.slice(0, 200)}`];
  const body = parsed as Record<string, unknown>;
  if (s.path.split('?')[0] === '/healthz') return problems;
  const shown = JSON.stringify(body).slice(0, 300);
  if (typeof body.success !== 'boolean') problems.push(`success is not a boolean: ${shown}`);
  if (res.status < 400) return problems;
  if (body.success !== false || typeof body.message !== 'string') problems.push(`an error without success: false and a message: ${shown}`);
  const family = DOCUMENTED.has(res.status) && res.status !== 405 && res.status !== 404 ? s.endpoint.family : 'plain';
  if (family === 'calls' && res.status === 400 && !(body.code === 'VALIDATION_ERROR' && listsEntry(body.errors, 'field'))) {
    problems.push(`a 400 of the calls family without code VALIDATION_ERROR and errors of { field, message }: ${shown}`);
  }
  if (family === 'calls' && res.status === 401 && body.error !== 'INVALID_API_KEY')
    problems.push(`a 401 without error INVALID_API_KEY: ${shown}`);
  if (family === 'jobs' && res.status === 422 && !listsEntry(body.errors, 'path')) {
    problems.push(`a 422 of the jobs family without errors of { path, message }: ${shown}`);
  }
  return problems;
}

/** Whether `errors` is an array with an entry of exactly two strings, `key` and `message`. */
function listsEntry(errors: unknown, key: string): boolean {
  return (
    Array.isArray(errors) &&
    errors.some((e: Record<string, unknown> | null) => {
      if (typeof e !== 'object' || e === null) return false;
      const keys = Object.keys(e).filter((k) => e[k] !== undefined);
      return keys.length === 2 && typeof e[key] === 'string' && typeof e.message === 'string';
    })
  );
}
