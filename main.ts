import { loadConfig, ConfigError, type Config } from './infra/config';
import { createLogger, type Logger } from './infra/logger';
import { connectDatabase } from './infra/database';
import { connectClient } from './infra/temporal';
import { installTemporalRuntime } from './infra/temporal-runtime';
import { startApi } from './api/server';
import { startWorker } from './worker/worker';
import { ensureSearchAttributes } from './worker/search-attributes';
import { buildActivityDeps } from './worker/activity-deps';

export interface RunningService {
  apiUrl: string | null;
  stop(): Promise<void>;
}

/** Starts the API, the worker or both (ROLE) against the configured database and Temporal cluster. */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const db = await connectDatabase(config.MONGODB_URI, config.MONGODB_DB);
  const temporal = await connectClient(config);
  const stops: Array<() => Promise<void>> = [];
  let apiUrl: string | null = null;

  if (config.ROLE !== 'api') {
    installTemporalRuntime(logger);
    await ensureSearchAttributes(temporal, config.TEMPORAL_NAMESPACE, logger);
    const worker = await startWorker(config, buildActivityDeps(config, { db, client: temporal, logger }));
    stops.push(worker.stop);
    logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE }, 'worker started');
  }
  if (config.ROLE !== 'worker') {
    const api = await startApi({ config, db, temporal, logger });
    apiUrl = api.url;
    // The API stops first, so no new work reaches a draining worker.
    stops.unshift(() => api.stop(config.SHUTDOWN_TIMEOUT_MS));
    logger.info({ url: api.url }, 'API listening');
  }

  return {
    apiUrl,
    async stop() {
      for (const stop of stops) await stop();
      await temporal.connection.close();
      await db.close();
    },
  };
}

/** Stops `stop` once on SIGINT or SIGTERM; a second signal exits at once. */
export function onShutdownSignal(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

if (require.main === module) {
  const config = loadConfigOrExit();
  const logger = createLogger(config.LOG_LEVEL);
  startService(config, logger).then(
    (service) => onShutdownSignal(logger, service.stop),
    (err) => {
      logger.fatal({ err }, 'start-up failed');
      process.exit(1);
    },
  );
}
