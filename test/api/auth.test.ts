import { adminStores } from '../../composition/admin-stores';
import { startStack, type Stack } from '../helpers/stack';

describe('API key authentication', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.stop());

  it('rejects a missing key with the call operations 401 shape', async () => {
    const res = await stack.request('GET', '/api/public/v1/workspace');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Invalid or missing API key', error: 'INVALID_API_KEY' });
  });

  it('rejects a wrong key', async () => {
    await stack.newWorkspace();
    const res = await stack.request('GET', '/api/public/v1/workspace', { key: 'hk_' + 'x'.repeat(43) });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('INVALID_API_KEY');
  });

  it('rejects a revoked key and keeps the workspace other keys working', async () => {
    const ws = await stack.newWorkspace('Revoke');
    const second = await adminStores(stack.db).workspaces.createKey(ws.id);
    expect((await stack.request('GET', '/api/public/v1/workspace', { key: ws.key })).status).toBe(200);
    expect(await adminStores(stack.db).workspaces.revokeKey({ key: ws.key })).toBe(true);
    expect((await stack.request('GET', '/api/public/v1/workspace', { key: ws.key })).status).toBe(401);
    const other = await stack.request('GET', '/api/public/v1/workspace', { key: second.api_key });
    expect(other.status).toBe(200);
    expect(other.body.data.workspace_id).toBe(ws.id);
  });

  it('resolves each key to its own workspace only', async () => {
    const a = await stack.newWorkspace('Alpha');
    const b = await stack.newWorkspace('Beta');
    const ra = await stack.request('GET', '/api/public/v1/workspace', { key: a.key });
    const rb = await stack.request('GET', '/api/public/v1/workspace', { key: b.key });
    expect(ra.body.data).toMatchObject({ workspace_id: a.id, name: 'Alpha' });
    expect(rb.body.data).toMatchObject({ workspace_id: b.id, name: 'Beta' });
  });

  it('stores keys only as hashes and never logs them', async () => {
    const ws = await stack.newWorkspace('Hash');
    const stored = await stack.db.apiKeys.find({ workspace_id: ws.id }).toArray();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(ws.key);
    expect(stored[0].hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
