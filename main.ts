import { loadConfig, ConfigError, type Config } from './infra/config';
import { createLogger, type Logger } from './infra/logger';
import { startService } from './composition/service';

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
