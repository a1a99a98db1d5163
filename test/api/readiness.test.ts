import { join } from 'node:path';
import { startDatabase } from '../../scripts/services';
import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { scratchDir } from '../helpers/scratch';

describe('readiness when the database stops', () => {
  const stacks: Stack[] = [];
  afterAll(async () => {
    for (const stack of stacks) {
      await stack.api.stop(500);
      await stack.temporal.connection.close();
      await stack.db.close().catch(() => undefined);
    }
  });

  /** The API on a database of its own, so stopping it leaves the shared one alone; `stopDatabase` stops it. */
  async function stackOnOwnDatabase() {
    const dir = scratchDir('hiring-readyz');
    const own = await startDatabase({ dataDir: join(dir, 'db'), logDir: dir, useExternal: false });
    const stack = await startStack({ env: { MONGODB_URI: own.uri } });
    stacks.push(stack);
    return { stack, stopDatabase: () => own.stop() };
  }

  it('turns 503 and names the database', async () => {
    const { stack, stopDatabase } = await stackOnOwnDatabase();
    expect((await stack.request('GET', '/readyz')).status).toBe(200);
    await stopDatabase();
    // Readiness is one look a second (api/health.ts): the next one sees the database gone.
    const res = await waitFor(
      () => stack.request('GET', '/readyz'),
      (r) => r.status === 503,
      5_000,
    );
    expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'unreachable', temporal: 'ok', search_attributes: 'ok' } });
  });

  it('answers a request while the database is down with 503 and Retry-After within 5 s, never the cause', async () => {
    const { stack, stopDatabase } = await stackOnOwnDatabase();
    await stopDatabase();
    const started = Date.now();
    const res = await stack.request('POST', '/api/public/v1/campaigns', {
      key: 'hk_' + 'a'.repeat(43),
      body: { ats_job_id: 'j', name: 'n' },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      success: false,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The service is temporarily unavailable; please retry in a few seconds.',
    });
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
