import { Client } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import type { WorkflowBundleOption } from '@temporalio/worker';
import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import { connectDatabase, type Database } from '../infra/database';
import { connectClient, connectWorkerConnection } from '../infra/temporal';
import { installTemporalRuntime } from '../infra/temporal-runtime';
import type { ApiDeps } from '../api/deps';
import { startApi, type RunningApi } from '../api/server';
import { liveSockets, pageRoutes } from '../web/routes';
import { startHousekeeping } from '../infra/housekeeping';
import type { Operations } from '../operations';
import type { RealtimeVoice } from '../providers/realtime/port';
import type { Stores } from '../stores';
import { workflowPort } from './workflow-port';
import type { WebDeps } from '../web/deps';
import type { ActivityDeps } from '../activities/deps';
import { startWorker, type RunningWorker } from '../worker/worker';
import { ensureSearchAttributes } from './search-attributes';
import { buildActivityDeps } from './activity-deps';
import { languageModel, vapiCallOptions, whatsappTemplates } from './providers';
import { ensureSchedules } from './schedules';
import { buildOperations, buildStores } from './stores';
import { meteredLanguageModel } from './metered-providers';
import { temporalTracing } from './tracing';
import { engineMetricsAddress, startMetrics } from './metrics';

/** What tests (and nothing else) change about a service: where it listens, how its worker starts, its adapters. */
export interface ServiceOverrides {
  port?: number;
  host?: string;
  /** A prebuilt workflow bundle (tests bundle once per file); otherwise the worker bundles at start-up. */
  workflowBundle?: WorkflowBundleOption;
  shutdownGraceTime?: Duration;
  /** Leave the Temporal runtime as the caller installed it (tests quiet the SDK's logs). */
  keepRuntime?: boolean;
  activities?: Partial<ActivityDeps>;
  /** Drop the service's database when it stops, before closing the connection (each test has its own). */
  dropDatabaseOnStop?: boolean;
  api?: Partial<Pick<ApiDeps, 'llm' | 'whatsappTemplates'>>;
  /** The pages' clock (tests move it past a question's time limit). */
  pages?: Partial<Pick<WebDeps, 'now'>>;
  /** The time the limits count requests at (tests hold a burst inside one window, however slow the machine). */
  limitsClock?: () => Date;
  /** Live interviews' realtime adapter (tests point the OpenAI one at a local stand-in that serves TLS). */
  realtime?: RealtimeVoice;
}

export interface RunningService {
  apiUrl: string | null;
  /** The process's `GET /metrics`, or null with METRICS_PORT=0. */
  metricsUrl: string | null;
  api: RunningApi | null;
  worker: RunningWorker | null;
  db: Database;
  /** The process's stores (tests arrange and read state through them, or through `db`). */
  stores: Stores;
  temporal: Client;
  stop(): Promise<void>;
}

/** The API's dependencies from the configuration: the one place the API's adapters are chosen. */
export function buildApiDeps(
  config: Config,
  base: Pick<ApiDeps, 'logger'> & { db: Database; temporal: Client } & Partial<Pick<ApiDeps, 'stores' | 'operations'>>,
  overrides: ServiceOverrides['api'] = {},
): ApiDeps {
  // Another API of its own beside a service's (tests of several processes) builds its stores here.
  const stores = base.stores ?? buildStores(config, base.db, base.temporal);
  const operations = base.operations ?? buildOperations(config, stores, base.temporal, base.logger);
  return {
    config,
    stores,
    operations,
    workflows: workflowPort(base.temporal, config, base.logger),
    logger: base.logger,
    llm: meteredLanguageModel(languageModel(config)),
    whatsappTemplates: whatsappTemplates(config),
    vapiCallOptions: vapiCallOptions(config),
    ...overrides,
  };
}

/**
 * The composition root: starts the API, the worker or both (ROLE) against the configured database and
 * Temporal cluster. `main.ts`, `npm run dev`, the benchmarks' processes and the integration tests all start
 * the service through here.
 */
export async function startService(config: Config, logger: Logger, overrides: ServiceOverrides = {}): Promise<RunningService> {
  const traced = temporalTracing(config);
  const db = await connectDatabase(config.MONGODB_URI, config.MONGODB_DB, { logger });
  const temporal = await connectClient(config, undefined, traced.clientInterceptors);
  const stores = buildStores(config, db, temporal, { limitsClock: overrides.limitsClock });
  // The service's own numbers are the service's: no workspace is given one, whoever gives it.
  const serviceNumbers = { voice: config.VAPI_PHONE_NUMBER_ID, whatsapp: config.WHATSAPP_PHONE_NUMBER_ID };
  for (const { kind, by } of await stores.workspaces.claimServiceNumbers(serviceNumbers))
    logger.error({ kind, workspace: by }, "a workspace holds the service's own number: its calls and replies reach that workspace alone");
  const operations: Operations = buildOperations(config, stores, temporal, logger, overrides.realtime);
  const stops: Array<() => Promise<void>> = [];
  let api: RunningApi | null = null;
  let worker: RunningWorker | null = null;

  // The SDK's exporter is part of the runtime, which tests install once per process themselves (keepRuntime).
  const engine = overrides.keepRuntime ? null : await engineMetricsAddress(config);
  // Listening before the worker and the API say they started: whoever waits for those lines can scrape at once.
  const metrics = await startMetrics(config, logger, temporal, engine);
  if (config.ROLE !== 'api') {
    if (!overrides.keepRuntime) installTemporalRuntime(logger, { metricsAt: engine ?? undefined });
    await ensureSearchAttributes(temporal, config.TEMPORAL_NAMESPACE, logger).catch((err: unknown) =>
      logger.warn({ err }, 'search attributes not checked: Temporal unreachable'),
    );
    // The worker's own connection also starts a bulk request's workflows (the fan-out's activity), so the
    // server hands each first workflow task straight to this worker (eager workflow start).
    const connection = await connectWorkerConnection(config);
    const starter = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, interceptors: traced.clientInterceptors });
    const activityDeps = buildActivityDeps(config, { db, client: temporal, logger, starter, stores, operations }, overrides.activities);
    worker = await startWorker(config, activityDeps, {
      workflowBundle: overrides.workflowBundle,
      shutdownGraceTime: overrides.shutdownGraceTime,
      connection,
      plugins: traced.workerPlugins,
    });
    stops.push(worker.stop);
    await ensureSchedules(temporal, config.TEMPORAL_TASK_QUEUE, logger);
    stops.push(startHousekeeping(stores.purgeExpired, logger, config.HOUSEKEEPING_INTERVAL_SECONDS));
    logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE }, 'worker started');
  }
  if (config.ROLE !== 'worker') {
    const apiDeps = buildApiDeps(config, { db, stores, operations, temporal, logger }, overrides.api);
    const webDeps: WebDeps = { config, stores, operations, logger, now: () => new Date(), ...overrides.pages };
    const running = await startApi(apiDeps, overrides.port, overrides.host, pageRoutes(webDeps));
    // Live interviews' sockets, on the same server and origin as their pages.
    const sockets = liveSockets(webDeps);
    running.server.on('upgrade', sockets.upgrade);
    api = running;
    // The API stops first, so no new work reaches a draining worker.
    stops.unshift(async () => {
      sockets.close();
      await running.stop(config.SHUTDOWN_TIMEOUT_MS);
    });
    logger.info({ url: running.url }, 'API listening');
  }
  if (metrics) stops.push(metrics.stop);

  return {
    apiUrl: api?.url ?? null,
    metricsUrl: metrics?.url ?? null,
    api,
    worker,
    db,
    stores,
    temporal,
    async stop() {
      for (const stop of stops) await stop();
      await temporal.connection.close();
      await traced.shutdown?.();
      if (overrides.dropDatabaseOnStop) await db.db.dropDatabase().catch(() => undefined);
      await db.close();
    },
  };
}
