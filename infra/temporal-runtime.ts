import { IllegalStateError } from '@temporalio/common';
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from './logger';

let installedHere = false;

/**
 * Sends the Temporal SDK's logs (its own and its native core's) into our JSON log, and leaves SIGINT/SIGTERM
 * to main.ts: the API must stop before the worker drains, which the SDK's own signal handling would not wait for.
 * With `metricsAt` (host:port), the SDK's own Prometheus exporter serves its `temporal_` metrics there, in
 * Prometheus' conventions (seconds, unit suffixes, `_total` counters); infra/metrics-server.ts serves them on.
 * While the runtime this installed runs, later calls are no-ops. The SDK shuts a runtime down once its last
 * worker and native connection have closed (a test's stack stopping, where a process runs one after another),
 * and the next call installs it again.
 */
export function installTemporalRuntime(
  logger: Logger,
  { level = 'INFO', coreLevel = 'WARN', metricsAt }: { level?: LogLevel; coreLevel?: LogLevel; metricsAt?: string } = {},
): void {
  const sdk = logger.child({ component: 'temporal-sdk' });
  const options: Parameters<typeof Runtime.install>[0] = {
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
  };
  try {
    Runtime.install(options);
    installedHere = true;
  } catch (err) {
    // A runtime installed here and still running is kept; one the SDK made itself before a first install (a
    // worker started before it) is an error.
    if (!(installedHere && err instanceof IllegalStateError)) throw err;
  }
}
