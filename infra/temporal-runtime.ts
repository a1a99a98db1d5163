import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from './logger';

let installed = false;

/**
 * Sends the Temporal SDK's logs (its own and its native core's) into our JSON log, and leaves SIGINT/SIGTERM
 * to main.ts: the API must stop before the worker drains, which the SDK's own signal handling would not wait for.
 * With `metricsAt` (host:port), the SDK's own Prometheus exporter serves its `temporal_` metrics there, in
 * Prometheus' conventions (seconds, unit suffixes, `_total` counters); infra/metrics-server.ts serves them on.
 * A process can install the runtime once; later calls are no-ops.
 */
export function installTemporalRuntime(
  logger: Logger,
  { level = 'INFO', coreLevel = 'WARN', metricsAt }: { level?: LogLevel; coreLevel?: LogLevel; metricsAt?: string } = {},
): void {
  if (installed) return;
  installed = true;
  const sdk = logger.child({ component: 'temporal-sdk' });
  Runtime.install({
    shutdownSignals: [],
    logger: new DefaultLogger(level, ({ level: l, message, meta }) => {
      const method = l === 'TRACE' ? 'trace' : l === 'DEBUG' ? 'debug' : l === 'INFO' ? 'info' : l === 'WARN' ? 'warn' : 'error';
      sdk[method](meta ?? {}, message);
    }),
    telemetryOptions: {
      logging: { filter: { core: coreLevel, other: 'ERROR' }, forward: {} },
      ...(metricsAt
        ? {
            metrics: {
              prometheus: { bindAddress: metricsAt, countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true },
            },
          }
        : {}),
    },
  });
}
