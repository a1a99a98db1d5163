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
import { pageRoutes } from '../web/routes';
import { startHousekeeping } from '../infra/housekeeping';
import { budgets } from '../infra/budgets';
import { interviewNotifier } from './interview-signals';
import { announcer, webhookSignaller } from './webhook-dispatch';
import type { WebDeps } from '../web/deps';
import type { ActivityDeps } from '../activities/deps';
import { startWorker, type RunningWorker } from '../worker/worker';
import { ensureSearchAttributes } from '../worker/search-attributes';
import { buildActivityDeps } from './activity-deps';
import { languageModel, whatsappTemplates } from './providers';
import { optOutStarter } from './opt-outs';
import { erasureStops } from './erasure';
import { ensureRetentionSchedule } from './retention';
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
}

export interface RunningService {
  apiUrl: string | null;
  /** The process's `GET /metrics`, or null with METRICS_PORT=0. */
  metricsUrl: string | null;
  api: RunningApi | null;
  worker: RunningWorker | null;
  db: Database;
  temporal: Client;
  stop(): Promise<void>;
}

/** The API's dependencies from the configuration: the one place the API's adapters are chosen. */
export function buildApiDeps(
  config: Config,
  base: Pick<ApiDeps, 'db' | 'temporal' | 'logger'>,
  overrides: ServiceOverrides['api'] = {},
): ApiDeps {
  const webhooks = webhookSignaller(base.temporal, config.TEMPORAL_TASK_QUEUE);
  return {
    config,
    ...base,
    announce: announcer(base.db, base.temporal, config.TEMPORAL_TASK_QUEUE),
    retryDelivery: webhooks.retry,
    optedOut: optOutStarter(base.temporal, config.TEMPORAL_TASK_QUEUE, base.logger),
    erasureStops: erasureStops(base.temporal, base.logger),
    budgets: budgets(base.db, config),
    llm: meteredLanguageModel(languageModel(config)),
    whatsappTemplates: whatsappTemplates(config),
    interviewChanged: interviewNotifier(base.temporal, config.TEMPORAL_TASK_QUEUE, { reopen: true }),
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
  const stops: Array<() => Promise<void>> = [];
  let api: RunningApi | null = null;
  let worker: RunningWorker | null = null;

  // The SDK's exporter is part of the runtime, which tests install once per process themselves (keepRuntime).
  const engine = overrides.keepRuntime ? null : await engineMetricsAddress(config);
  if (config.ROLE !== 'api') {
    if (!overrides.keepRuntime) installTemporalRuntime(logger, { metricsAt: engine ?? undefined });
    await ensureSearchAttributes(temporal, config.TEMPORAL_NAMESPACE, logger);
    // The worker's own connection also starts a bulk request's workflows (the fan-out's activity), so the
    // server hands each first workflow task straight to this worker (eager workflow start).
    const connection = await connectWorkerConnection(config);
    const starter = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, interceptors: traced.clientInterceptors });
    worker = await startWorker(config, buildActivityDeps(config, { db, client: temporal, logger, starter }, overrides.activities), {
      workflowBundle: overrides.workflowBundle,
      shutdownGraceTime: overrides.shutdownGraceTime,
      connection,
      plugins: traced.workerPlugins,
    });
    stops.push(worker.stop);
    await ensureRetentionSchedule(temporal, config.TEMPORAL_TASK_QUEUE, logger);
    stops.push(startHousekeeping(db, logger, config.HOUSEKEEPING_INTERVAL_SECONDS));
    logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE }, 'worker started');
  }
  if (config.ROLE !== 'worker') {
    const apiDeps = buildApiDeps(config, { db, temporal, logger }, overrides.api);
    const running = await startApi(
      apiDeps,
      overrides.port,
      overrides.host,
      pageRoutes({
        config,
        db,
        logger,
        now: () => new Date(),
        interviewChanged: interviewNotifier(temporal, config.TEMPORAL_TASK_QUEUE, { reopen: false }),
        announce: apiDeps.announce,
        budgets: apiDeps.budgets,
        optedOut: apiDeps.optedOut,
        ...overrides.pages,
      }),
    );
    api = running;
    // The API stops first, so no new work reaches a draining worker.
    stops.unshift(() => running.stop(config.SHUTDOWN_TIMEOUT_MS));
    logger.info({ url: running.url }, 'API listening');
  }

  const metrics = await startMetrics(config, logger, temporal, engine);
  if (metrics) stops.push(metrics.stop);

  return {
    apiUrl: api?.url ?? null,
    metricsUrl: metrics?.url ?? null,
    api,
    worker,
    db,
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
