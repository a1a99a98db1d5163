import { readFileSync } from 'node:fs';
import { Client, Connection, WorkflowExecutionAlreadyStartedError, type ConnectionOptions, type WorkflowStartOptions } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { NativeConnection, type NativeConnectionOptions } from '@temporalio/worker';
import type { Config } from './config';
import type { FanOutResult, WorkflowStart } from '../shared/workflow-starts';

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

export async function connectClient(config: Config): Promise<Client> {
  const connection = await Connection.connect({ ...connectionOptions(config), connectTimeout: '10s' });
  return new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
}

export function connectWorkerConnection(config: Config): Promise<NativeConnection> {
  return NativeConnection.connect(connectionOptions(config));
}

/**
 * Starts a workflow under its deterministic id, once ever: an execution with that id exists when a retried
 * request or a recovery starts it again, running or closed, and is left as it is (REJECT_DUPLICATE, so a
 * finished call or invitation is never run a second time). True when this call started it.
 */
export async function startWorkflowOnce<T extends Workflow>(client: Client, workflow: T | string, options: WorkflowStartOptions<T>): Promise<boolean> {
  try {
    await client.workflow.start(workflow, { workflowIdReusePolicy: 'REJECT_DUPLICATE', ...options });
    return true;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return false;
  }
}

/** Starts every workflow of a bulk request at once, each once ever, on `taskQueue`. */
export async function startEach(client: Client, taskQueue: string, starts: WorkflowStart[]): Promise<FanOutResult> {
  const started = await Promise.all(
    starts.map((s) =>
      startWorkflowOnce(client, s.workflowType, {
        workflowId: s.workflowId,
        taskQueue,
        args: s.args,
        typedSearchAttributes: s.searchAttributes,
        staticSummary: s.summary,
      }),
    ),
  );
  const count = started.filter(Boolean).length;
  return { started: count, existing: starts.length - count };
}
