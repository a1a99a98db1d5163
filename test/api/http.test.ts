import { request } from 'node:http';
import { startStack, type Stack } from '../helpers/stack';

/** node:http, because fetch refuses methods such as TRACE that a client may still send. */
function rawRequest(base: string, method: string, path: string): Promise<{ status: number; body: unknown; allow: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), allow: res.headers.allow }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP hygiene', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.stop());

  it('answers unknown routes with a JSON 404 and a request id', async () => {
    const res = await stack.request('GET', '/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Not found: GET /nowhere' });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a wrong method with a JSON 405', async () => {
    const res = await stack.request('DELETE', '/healthz');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ success: false, message: 'Method DELETE not allowed on /healthz' });
    expect(res.headers.get('allow')).toMatch(/GET/);
  });

  it('answers a method no route implements with a JSON 405 and the Allow header, and an unknown path with a 404', async () => {
    for (const [method, path, allow] of [
      ['TRACE', '/healthz', /GET/],
      ['TRACE', '/api/public/v1/call/initiate', /POST/],
      ['PROPFIND', '/api/public/v1/interview/invite', /POST/],
    ] as const) {
      const res = await rawRequest(stack.url, method, path);
      expect({ method, path, status: res.status, body: res.body }).toEqual({
        method,
        path,
        status: 405,
        body: { success: false, message: `Method ${method} not allowed on ${path}` },
      });
      expect(res.allow).toMatch(allow);
    }
    const unknown = await rawRequest(stack.url, 'PROPFIND', '/nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: 'Not found: PROPFIND /nowhere' });
  });

  it('keeps an idle connection for 65 s, past the 60 s of common proxies, and says so', async () => {
    const res = await stack.request('GET', '/nowhere');
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
  });

  it('echoes a caller-supplied request id', async () => {
    const res = await stack.request('GET', '/healthz', { headers: { 'x-request-id': 'ats-123' } });
    expect(res.headers.get('x-request-id')).toBe('ats-123');
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('reports ready when the database and Temporal answer', async () => {
    const res = await stack.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', temporal: 'ok', search_attributes: 'ok' } });
  });

  it('answers JSON nested deeper than 64 levels with 400, on every route that reads JSON, and writes nothing', async () => {
    const { key } = await stack.newWorkspace('Deep');
    const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth - 1) + '[' + leaf + ']' + '}'.repeat(depth - 1);
    const routes: Array<[string, string]> = [
      ['POST', '/api/public/v1/call/initiate'],
      ['POST', '/api/public/v1/campaigns'],
      ['POST', '/api/public/v1/interview/invite'],
      ['POST', '/api/public/v1/ai/parse-jd'],
      ['POST', '/api/public/v1/webhooks'],
      ['POST', '/api/public/v1/calls/cancel'],
    ];
    for (const [method, path] of routes) {
      for (const raw of [nested(65), `{"job_description":${'['.repeat(100_000)}${']'.repeat(100_000)}}`]) {
        const res = await stack.request(method, path, { key, raw });
        expect({ path, status: res.status, body: JSON.stringify(res.body) }).toEqual({
          path,
          status: 400,
          body: expect.stringContaining('nested deeper than 64 levels'),
        });
      }
      // 64 levels are read, and answered as any body of that shape is.
      const res = await stack.request(method, path, { key, raw: nested(64) });
      expect({ path, status: res.status }).toEqual({ path, status: expect.any(Number) });
      expect(JSON.stringify(res.body)).not.toContain('nested deeper');
      expect(res.status).toBeLessThan(500);
    }
    for (const list of ['/api/public/v1/calls', '/api/public/v1/interviews', '/api/public/v1/webhooks']) {
      const res = await stack.request('GET', list, { key });
      expect({ list, items: res.body.data }).toEqual({ list, items: [] });
    }
  });
});
