import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { floorActivities } from './activities';

/**
 * The engine floor's worker, a process of its own beside the service's worker, with the same SDK and
 * defaults: TEMPORAL_ADDRESS, FLOOR_TASK_QUEUE. Prints "floor worker started" once it polls.
 */
async function main(): Promise<void> {
  const address = process.env.TEMPORAL_ADDRESS!;
  const client = new Client({ connection: await Connection.connect({ address }) });
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address }),
    taskQueue: process.env.FLOOR_TASK_QUEUE!,
    workflowsPath: require.resolve('./workflows'),
    activities: floorActivities(client),
  });
  const stop = () => worker.shutdown();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const running = worker.run();
  process.stdout.write('floor worker started\n');
  await running;
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
