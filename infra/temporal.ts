import { readFileSync } from 'node:fs';
import {
  Client,
  Connection,
  WorkflowExecutionAlreadyStartedError,
  type ClientInterceptors,
  type ConnectionOptions,
  type WorkflowStartOptions,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { NativeConnection, type NativeConnectionOptions } from '@temporalio/worker';
import type { Config } from './config';
import type { FanOutResult, WorkflowStart } from '../shared/workflow-starts';
import { ServiceUnavailableError } from '../shared/errors';

/**
 * Connection settings for any Temporal cluster: the dev server (plain gRPC), a self-hosted cluster with
 * mutual TLS, or Temporal Cloud with an API key. The client and the worker use the same settings.
 */
function connectionOptions(config: Config): ConnectionOptions & NativeConnectionOptions {
  const read = (path: string | undefined) => (path ? readFileSync(path) : undefined);
  const cert = read(config.TEMPORAL_TLS_CERT_PATH);
  const key = read(config.TEMPORAL_TLS_KEY_PATH);
  const ca = read(config.TEMPORAL_TLS_CA_PATH);
  const useTls = config.TEMPORAL_TLS || Boolean(cert || ca || config.TEMPORAL_API_KEY);
  return {
    address: config.TEMPORAL_ADDRESS,
    tls: useTls
      ? {
          ...(cert && key ? { clientCertPair: { crt: cert, key } } : {}),
          ...(ca ? { serverRootCACertificate: ca } : {}),
          ...(config.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: config.TEMPORAL_TLS_SERVER_NAME } : {}),
        }
      : undefined,
    ...(config.TEMPORAL_API_KEY ? { apiKey: config.TEMPORAL_API_KEY } : {}),
  };
}

/**
 * `connectTimeoutMs`: how long an unreachable server is tried (the admin CLI gives up sooner); `interceptors`:
 * the client's, such as tracing's (composition/tracing.ts).
 */
export async function connectClient(config: Config, connectTimeoutMs = 10_000, interceptors?: ClientInterceptors): Promise<Client> {
  const connection = await Connection.connect({ ...connectionOptions(config), connectTimeout: connectTimeoutMs });
  return new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, interceptors });
}

export function connectWorkerConnection(config: Config): Promise<NativeConnection> {
  return NativeConnection.connect(connectionOptions(config));
}

/** When Temporal is asked whether it is there, and how long it has to answer. */
export const REACHABILITY = { probeAfterMs: 1_500, probeTimeoutMs: 1_500, maxMs: 60_000 } as const;

/**
 * Runs `fn` (calls on `client`) for as long as Temporal answers, and no longer: a busy server that is slow
 * to take a start is waited for (up to `maxMs`), while one that cannot be reached fails the call with
 * ServiceUnavailableError within about 3 s. From `probeAfterMs` on, a cheap GetSystemInfo asks the server
 * whether it is there; a probe without an answer in `probeTimeoutMs` gives up on `fn`. The work may still
 * reach the server after that, so a caller must be ready for it to have happened.
 */
export async function whileReachable<R>(
  client: Client,
  fn: () => Promise<R>,
  limits: { probeAfterMs: number; probeTimeoutMs: number; maxMs: number } = REACHABILITY,
): Promise<R> {
  let settled = false;
  let timer: NodeJS.Timeout | undefined;
  const pause = (ms: number) => new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  const watchdog = async (): Promise<never> => {
    for (;;) {
      await pause(limits.probeAfterMs);
      if (settled) return new Promise<never>(() => undefined);
      const reachable = await client.connection
        .withDeadline(Date.now() + limits.probeTimeoutMs, () => client.connection.workflowService.getSystemInfo({}))
        .then(
          () => true,
          () => false,
        );
      if (settled) return new Promise<never>(() => undefined);
      if (!reachable) throw new ServiceUnavailableError('temporal');
    }
  };
  try {
    return await Promise.race([client.withDeadline(Date.now() + limits.maxMs, fn), watchdog()]);
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}

/**
 * Starts a workflow under its deterministic id, once: an execution with that id exists when a retried
 * request or a recovery starts it again, running or completed, and is left as it is, so a finished call or
 * invitation is never run a second time. Only a failed execution is replaced (ALLOW_DUPLICATE_FAILED_ONLY):
 * such as one whose start reached Temporal after its request gave up and took back the record it needed,
 * which then failed at its first step. True when this call started it.
 */
export async function startWorkflowOnce<T extends Workflow>(
  client: Client,
  workflow: T | string,
  options: WorkflowStartOptions<T>,
): Promise<boolean> {
  try {
    await client.workflow.start(workflow, { workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY', ...options });
    return true;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return false;
  }
}

/** What starting `s` on `taskQueue` asks of Temporal: its id, arguments, search attributes and summary. */
export function startOptions(s: WorkflowStart, taskQueue: string) {
  return { workflowId: s.workflowId, taskQueue, args: s.args, typedSearchAttributes: s.searchAttributes, staticSummary: s.summary };
}

/**
 * Starts every workflow of a bulk request at once, each once (startWorkflowOnce), on `taskQueue`. `eager`: the
 * client is on a worker's own connection, and asks the server to hand each first workflow task straight to
 * that worker (eager workflow start) instead of through matching. A start for which the worker has no free
 * slot goes through matching as before (in a run of 50, 28 went eagerly).
 */
export async function startEach(client: Client, taskQueue: string, starts: WorkflowStart[], eager = false): Promise<FanOutResult> {
  const started = await Promise.all(
    starts.map((s) =>
      startWorkflowOnce(client, s.workflowType, { ...startOptions(s, taskQueue), ...(eager ? { requestEagerStart: true } : {}) }),
    ),
  );
  const count = started.filter(Boolean).length;
  return { started: count, existing: starts.length - count };
}
