import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import { freePort } from '../infra/free-port';
import { gaugeCallsFrom } from '../infra/metrics';
import { startMetricsServer, type MetricsServer } from '../infra/metrics-server';
import { CallStatusKey } from '../workflows/search-attributes';
import type { CallStatus } from '../shared/calls/schema';

/** Where the Temporal SDK's exporter listens inside a worker process: loopback, a port of the kernel's choosing. */
export async function engineMetricsAddress(config: Config): Promise<string | null> {
  if (config.METRICS_PORT === 0 || config.ROLE === 'api') return null;
  return `127.0.0.1:${await freePort()}`;
}

/** How long a count of calls by status serves scrapes: Prometheus scrapes every 15 s by default. */
const COUNT_TTL_MS = 10_000;

/**
 * The calls in a status across every process, from Temporal's visibility store: each call's workflow carries
 * its status (the CallStatus search attribute), so one count query answers it without reading the database,
 * whose documents FerretDB would have to scan. Only workers export it (each the same value): the dashboard
 * takes max() over them.
 */
export function countCalls(temporal: Client, taskQueue: string) {
  const cache = new Map<CallStatus, { at: number; value: Promise<number> }>();
  return (status: CallStatus): Promise<number> => {
    const hit = cache.get(status);
    if (hit && Date.now() - hit.at < COUNT_TTL_MS) return hit.value;
    const query = `TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Running' AND ${CallStatusKey.name} = '${status}'`;
    const value = temporal.workflow.count(query).then((r) => r.count);
    cache.set(status, { at: Date.now(), value });
    value.catch(() => cache.delete(status));
    return value;
  };
}

/** Starts the process's metrics listener (none when METRICS_PORT=0); `engine` is the SDK exporter's address. */
export async function startMetrics(config: Config, logger: Logger, temporal: Client, engine: string | null): Promise<MetricsServer | null> {
  if (config.METRICS_PORT === 0) return null;
  if (config.ROLE !== 'api') gaugeCallsFrom(countCalls(temporal, config.TEMPORAL_TASK_QUEUE));
  const server = await startMetricsServer(config.METRICS_HOST, config.METRICS_PORT, logger, engine ? `http://${engine}/metrics` : null);
  logger.info({ url: server.url }, 'metrics listening');
  return server;
}
