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
});
