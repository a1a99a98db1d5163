import { Client, Connection } from '@temporalio/client';
import { whileReachable } from '../../infra/temporal';
import { ServiceUnavailableError } from '../../shared/errors';
import { startTemporalDevServer } from '../../scripts/services';
import { scratchDir } from '../helpers/scratch';

const quick = { probeAfterMs: 300, probeTimeoutMs: 500, maxMs: 10_000 };

describe('whileReachable: wait for a busy Temporal, give up on one that is gone', () => {
  it('waits past the probe time for work that is slow while the server answers', async () => {
    const connection = await Connection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS! });
    try {
      const client = new Client({ connection });
      const result = await whileReachable(client, () => new Promise((r) => setTimeout(() => r('done'), 2_000)), quick);
      expect(result).toBe('done');
    } finally {
      await connection.close();
    }
  });

  it('fails with ServiceUnavailableError soon after the server stops', async () => {
    const server = await startTemporalDevServer({ headless: true, logDir: scratchDir('reach') });
    const connection = await Connection.connect({ address: server.address });
    try {
      const client = new Client({ connection });
      await client.connection.workflowService.getSystemInfo({});
      await server.stop();
      const started = Date.now();
      let start: Promise<unknown> | undefined;
      const attempt = whileReachable(
        client,
        () => (start = client.workflow.start('smokeWorkflow', { taskQueue: 'gone', workflowId: 'gone-1' })),
        { ...quick, maxMs: 3_000 },
      );
      await expect(attempt).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect(Date.now() - started).toBeLessThan(3_000);
      // The client goes on retrying the start until its deadline; closing the connection under a pending
      // retry would throw from the retry's timer later, in whatever runs next.
      await start?.catch(() => undefined);
    } finally {
      await server.stop();
      await connection.close();
    }
  });
});
