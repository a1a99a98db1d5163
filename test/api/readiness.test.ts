import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDatabase } from '../../scripts/services';
import { startStack, type Stack } from '../helpers/stack';

describe('readiness when the database stops', () => {
  let stack: Stack | undefined;
  afterAll(async () => {
    await stack?.api.stop(500);
    await stack?.temporal.connection.close();
    await stack?.db.close().catch(() => undefined);
  });

  it('turns 503 and names the database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hiring-readyz-'));
    // A database of its own, so stopping it leaves the shared one alone.
    const own = await startDatabase({ dataDir: join(dir, 'db'), logDir: dir, useExternal: false });
    stack = await startStack({ env: { MONGODB_URI: own.uri } });
    expect((await stack.request('GET', '/readyz')).status).toBe(200);
    await own.stop();
    const res = await stack.request('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'unreachable', temporal: 'ok' } });
  });

  it('answers an internal failure with a generic 500 and a request id, never the cause', async () => {
    const res = await stack!.request('POST', '/api/public/v1/campaigns', { key: 'hk_' + 'a'.repeat(43), body: { ats_job_id: 'j', name: 'n' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, code: 'UNKNOWN_ERROR', message: 'An unexpected error occurred' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
