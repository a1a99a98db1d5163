import { Connection } from '@temporalio/client';
import Long from 'long';
import { startStack, uniqueName, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { searchAttributeKeys } from '../../workflows/search-attributes';

const V1 = '/api/public/v1';

/**
 * An API started before any worker, on a namespace that has never seen one: it registers the search
 * attributes its workflows are started with itself, is not ready until they exist, and then schedules calls.
 * Its readiness is one shared look a second, however many probes come.
 */
describe('the API at start-up', () => {
  let stack: Stack;
  let namespace: string;
  beforeAll(async () => {
    namespace = uniqueName('fresh-ns');
    const connection = await Connection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS! });
    try {
      await connection.workflowService.registerNamespace({
        namespace,
        workflowExecutionRetentionPeriod: { seconds: Long.fromNumber(86_400) },
      });
      await waitFor(
        () =>
          connection.workflowService.describeNamespace({ namespace }).then(
            () => true,
            () => false,
          ),
        (ok) => ok,
        10_000,
      );
    } finally {
      await connection.close();
    }
    stack = await startStack({ env: { TEMPORAL_NAMESPACE: namespace } });
  });
  afterAll(() => stack?.stop());

  it('registers the search attributes itself, is ready only once they exist, and then schedules a call', async () => {
    const ready = await waitFor(
      () => stack.request('GET', '/readyz'),
      (r) => r.status === 200,
      20_000,
    );
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', temporal: 'ok', search_attributes: 'ok' } });
    const listed = await stack.temporal.connection.operatorService.listSearchAttributes({ namespace });
    for (const { name } of searchAttributeKeys) expect(Object.keys(listed.customAttributes ?? {})).toContain(name);

    const { key } = await stack.newWorkspace('Early');
    expect((await stack.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: 'job-early', name: 'Early' } })).status).toBe(201);
    const res = await stack.request('POST', `${V1}/call/initiate`, {
      key,
      body: {
        ats_job_id: 'job-early',
        instructions: 'Ask about availability.',
        candidates: [{ id: 'c1', name: 'Ada Early', phone: '+14155550101', email: 'ada@example.com' }],
      },
    });
    // Before, with no worker yet: 503 "Could not schedule the call; please retry" (no mapping for WorkspaceId).
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.calls[0]).toMatchObject({ status: 'success', message: 'Call scheduled' });
  });

  it('answers a flood of readiness probes from one look, not a database round trip each', async () => {
    await waitFor(
      () => stack.request('GET', '/readyz'),
      (r) => r.status === 200,
      20_000,
    );
    const ping = jest.spyOn(stack.stores, 'ping');
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => fetch(`${stack.url}/readyz`).then((r) => r.status)));
      expect(answers.every((s) => s === 200)).toBe(true);
      expect(ping.mock.calls.length).toBeLessThanOrEqual(2);
      // And liveness touches nothing.
      ping.mockClear();
      await Promise.all(Array.from({ length: 20 }, () => fetch(`${stack.url}/healthz`)));
      expect(ping).not.toHaveBeenCalled();
    } finally {
      ping.mockRestore();
    }
  });
});
