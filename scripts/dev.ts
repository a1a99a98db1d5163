import { devPersonHashSecret } from './dev-secret';
import { join } from 'node:path';
import { createLogger } from '../infra/logger';
import { loadConfigOrExit, onShutdownSignal } from '../main';
import { startService } from '../composition/service';
import { provisioned, startDatabase, startTemporalDevServer, type RunningService } from './services';

/**
 * `npm run dev`: the whole stack on one machine. The database and the Temporal dev server keep their state
 * under the cache folder, so workflows and records survive a restart of the stack.
 */
async function main(): Promise<void> {
  const dataDir = join(provisioned().cacheDir, 'dev-data');
  const logDir = join(dataDir, 'logs');
  const servers: RunningService[] = [];
  const stopServers = async () => {
    for (const s of servers.reverse()) await s.stop();
  };
  // The servers started here are handed to the service's configuration, not written into process.env.
  const env: NodeJS.ProcessEnv = { ...process.env };
  // A receiver on this machine (http://localhost:…) is what a developer tries first; WEBHOOK_ALLOW_PRIVATE=false turns it off.
  env.WEBHOOK_ALLOW_PRIVATE ??= 'true';
  // The secret people's hashes are keyed with, made once into the dev cache beside its data: never the database.
  // CONTACT_HASH_SECRET(S): the earlier names (infra/config.ts).
  if (!env.PERSON_HASH_SECRET && !env.PERSON_HASH_SECRETS && !env.CONTACT_HASH_SECRET && !env.CONTACT_HASH_SECRETS)
    env.PERSON_HASH_SECRET = devPersonHashSecret(dataDir);
  process.stdout.write('Starting the database and Temporal (service logs in ' + logDir + ')...\n');
  try {
    const db = await startDatabase({ dataDir: join(dataDir, 'db'), logDir, port: Number(process.env.DEV_DB_PORT ?? 27018) });
    servers.push(db);
    env.MONGODB_URI = db.uri;
    if (!env.TEMPORAL_ADDRESS) {
      const temporal = await startTemporalDevServer({
        port: Number(process.env.DEV_TEMPORAL_PORT ?? 7233),
        uiPort: Number(process.env.DEV_TEMPORAL_UI_PORT ?? 8233),
        dbFile: join(dataDir, 'temporal.sqlite'),
        logDir,
      });
      servers.push(temporal);
      env.TEMPORAL_ADDRESS = temporal.address;
      env.TEMPORAL_UI_URL ??= temporal.uiUrl ?? undefined;
    }
  } catch (err) {
    await stopServers();
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }

  const config = loadConfigOrExit(env);
  const logger = createLogger(config.LOG_LEVEL);
  const service = await startService(config, logger).catch(async (err) => {
    logger.fatal({ err }, 'start-up failed');
    await stopServers();
    process.exit(1);
  });
  process.stdout.write(
    [
      '',
      `  API          ${service.apiUrl}`,
      `  Metrics      ${service.metricsUrl ?? '(off: METRICS_PORT=0)'}${config.ROLE === 'all' ? '   (the API and the worker: one process)' : ''}`,
      `  Temporal UI  ${config.TEMPORAL_UI_URL ?? '(external cluster: see its own UI)'}`,
      `  MongoDB      ${config.MONGODB_URI}`,
      '',
      '  More processes on the same stack (docs/scaling.md):',
      `    MONGODB_URI=${config.MONGODB_URI} TEMPORAL_ADDRESS=${config.TEMPORAL_ADDRESS} ROLE=worker METRICS_PORT=9466 npx tsx main.ts`,
      `    MONGODB_URI=${config.MONGODB_URI} TEMPORAL_ADDRESS=${config.TEMPORAL_ADDRESS} ROLE=api PORT=3001 METRICS_PORT=9467 npx tsx main.ts`,
      '',
      '  Create a workspace and key:',
      '    npm run --silent admin -- workspace:create --name Acme --company "Acme Inc" --sender-first-name Ada --sender-last-name Lovelace',
      '',
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  onShutdownSignal(logger, async () => {
    await service.stop();
    await stopServers();
  });
}

void main();
