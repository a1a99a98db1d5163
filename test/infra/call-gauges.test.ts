import { Client } from '@temporalio/client';
import { connectClient } from '../../infra/temporal';
import { gaugeCallsFrom, registry } from '../../infra/metrics';
import { countCalls } from '../../composition/metrics';
import { CallStatusKey } from '../../workflows/search-attributes';
import { testConfig, uniqueName } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

/**
 * The call gauges read Temporal's visibility store: calls whose workflow runs with CallStatus `in_progress`
 * or `waiting_for_capacity` on the service's task queue, and no others. The workflows here run on a queue
 * no worker polls, so they stay running with the status they were started with.
 */
describe('the calls in progress and waiting, from Temporal visibility', () => {
  let client: Client;
  const config = testConfig();
  const started: string[] = [];

  beforeAll(async () => {
    client = await connectClient(config);
  });
  afterAll(async () => {
    await Promise.all(
      started.map((id) =>
        client.workflow
          .getHandle(id)
          .terminate('test over')
          .catch(() => undefined),
      ),
    );
    await client.connection.close();
  });

  const start = async (status: string, taskQueue = config.TEMPORAL_TASK_QUEUE) => {
    const workflowId = uniqueName('gauge');
    await client.workflow.start('callWorkflow', { workflowId, taskQueue, typedSearchAttributes: [{ key: CallStatusKey, value: status }] });
    started.push(workflowId);
  };
  const gauge = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;

  it('counts the running calls of its own task queue by status', async () => {
    await Promise.all([start('in_progress'), start('in_progress'), start('waiting_for_capacity'), start('scheduled')]);
    await start('in_progress', uniqueName('other-queue'));
    // Visibility is eventually consistent, and a count is kept 10 s: read again until it has caught up.
    const read = async () => {
      gaugeCallsFrom(countCalls(client, config.TEMPORAL_TASK_QUEUE));
      return [await gauge('hiring_calls_in_progress'), await gauge('hiring_calls_waiting_for_capacity')];
    };
    expect(await waitFor(read, ([p, w]) => p === 2 && w === 1, 20_000)).toEqual([2, 1]);
  }, 30_000);
});
