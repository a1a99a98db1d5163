import { Worker, type NativeConnection, type WorkerPlugin, type WorkflowBundleOption } from '@temporalio/worker';
import type { Duration } from '@temporalio/common';
import { createActivities } from '../activities';
import type { ActivityDeps } from '../activities/deps';
import type { Config } from '../infra/config';
import { connectWorkerConnection } from '../infra/temporal';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface WorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  maxCachedWorkflows?: number;
  /** A prebuilt bundle (tests bundle once per suite); otherwise the workflows are bundled at start-up. */
  workflowBundle?: WorkflowBundleOption;
  shutdownGraceTime?: Duration;
  /** Tracing's plugin (composition/tracing.ts): its interceptors, and the workflow spans' sink. */
  plugins?: WorkerPlugin[];
}

export function workflowsPath(): string {
  return require.resolve('../workflows');
}

/** The bundles `npm run build` writes beside the compiled worker: without and with tracing's workflow interceptors. */
export const BUNDLE_FILES = { plain: 'workflow-bundle.js', traced: 'workflow-bundle-traced.js' } as const;

/**
 * The bundle the worker loads: a test's own; WORKFLOW_BUNDLE_PATH; the one `npm run build` wrote beside the
 * compiled worker (never beside the sources: it would be of older code), the traced one when tracing is on.
 * Undefined: the worker bundles the workflows at start-up, and stays about 125 MiB larger for good
 * (scripts/bundle-workflows.ts).
 */
export function prebuiltWorkflows(
  config: Pick<Config, 'WORKFLOW_BUNDLE_PATH'>,
  given?: WorkflowBundleOption,
  traced = false,
): WorkflowBundleOption | undefined {
  if (given) return given;
  const built = join(__dirname, '..', traced ? BUNDLE_FILES.traced : BUNDLE_FILES.plain);
  // A bundle named by path is taken as it is: with tracing on, it must have been made with its interceptors.
  const path = config.WORKFLOW_BUNDLE_PATH ?? (__filename.endsWith('.js') && existsSync(built) ? built : null);
  return path ? { codePath: path } : undefined;
}

export function createWorker(opts: WorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: createActivities(opts.deps),
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: workflowsPath() }),
    // Bounds the worker's memory: the SDK's default grows with the heap limit (about 2,000 workflows here,
    // and 978 MiB resident with 10,000 sleeping calls in a measurement; 200 held them in 562 MiB with a
    // prebuilt bundle); evicted workflows replay on wake-up.
    ...(opts.maxCachedWorkflows ? { maxCachedWorkflows: opts.maxCachedWorkflows } : {}),
    // Activities in flight get this long to finish when the worker is asked to stop.
    shutdownGraceTime: opts.shutdownGraceTime ?? '10s',
    plugins: opts.plugins,
  });
}

export interface RunningWorker {
  worker: Worker;
  /** Drains the worker (in-flight activities get the grace time) and closes its connection. */
  stop(): Promise<void>;
}

/** Connects to the configured cluster, creates the worker and runs it until `stop`. */
export async function startWorker(
  config: Config,
  deps: ActivityDeps,
  opts: Pick<WorkerOptions, 'workflowBundle' | 'shutdownGraceTime' | 'plugins'> & { connection?: NativeConnection } = {},
): Promise<RunningWorker> {
  // Given when the activities also use it (eager starts); the worker closes it when it stops, either way.
  const connection = opts.connection ?? (await connectWorkerConnection(config));
  const worker = await createWorker({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    deps,
    workflowBundle: prebuiltWorkflows(config, opts.workflowBundle, Boolean(opts.plugins?.length)),
    plugins: opts.plugins,
    shutdownGraceTime: opts.shutdownGraceTime ?? config.SHUTDOWN_TIMEOUT_MS,
    maxCachedWorkflows: config.WORKER_MAX_CACHED_WORKFLOWS,
  });
  const running = worker.run();
  running.catch((err) => deps.logger.fatal({ err }, 'worker stopped unexpectedly'));
  return {
    worker,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running.catch(() => undefined);
      await connection.close();
    },
  };
}
