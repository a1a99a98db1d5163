import { startStack, type Stack } from '../helpers/stack';

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
    expect(res.body.success).toBe(false);
  });

  it('echoes a caller-supplied request id', async () => {
    const res = await stack.request('GET', '/healthz', { headers: { 'x-request-id': 'ats-123' } });
    expect(res.headers.get('x-request-id')).toBe('ats-123');
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('reports ready when the database and Temporal answer', async () => {
    const res = await stack.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
  });
});
