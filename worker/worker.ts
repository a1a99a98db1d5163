import { Worker, type NativeConnection, type WorkflowBundleOption } from '@temporalio/worker';
import type { Duration } from '@temporalio/common';
import { createActivities, type ActivityDeps } from '../activities';

export interface WorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** A prebuilt bundle (tests bundle once per suite); otherwise the workflows are bundled at start-up. */
  workflowBundle?: WorkflowBundleOption;
  shutdownGraceTime?: Duration;
}

export function workflowsPath(): string {
  return require.resolve('../workflows');
}

export function createWorker(opts: WorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: createActivities(opts.deps),
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: workflowsPath() }),
    // Activities in flight get this long to finish when the worker is asked to stop.
    shutdownGraceTime: opts.shutdownGraceTime ?? '10s',
  });
}
