import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';
import { startEach } from '../infra/temporal';
import { callWaker } from './call-capacity';
import type { Announce } from '../infra/webhooks/events';
import type { ActivityDeps } from '../activities/deps';
import type { Operations } from '../operations';
import type { Stores } from '../stores';
import { atsReporters, emailProvider, languageModel, transcriber, voiceProvider, whatsappProvider } from './providers';
import { meteredEmail, meteredLanguageModel, meteredTranscriber } from './metered-providers';
import { buildOperations, buildStores } from './stores';

export interface ActivityWiring {
  db: Database;
  client: Client;
  logger: Logger;
  /** A client on the worker's own connection: a bulk request's workflows start eagerly on this worker. */
  starter?: Client;
  /** The process's stores and use cases (startService's); built here when absent. */
  stores?: Stores;
  operations?: Operations;
}

/** What a test may replace: any dependency, and the announcer the stores are built with. */
export type ActivityOverrides = Partial<ActivityDeps> & { announce?: Announce };

/**
 * The activities' dependencies: the configured providers wired to the stores and Temporal. Tests replace any
 * of them through `overrides` (a voice provider that fails, a clock of the time-skipping server, an announcer
 * that fails); stores are then built for them, with that clock (their limits' too) and announcer.
 */
export function buildActivityDeps(config: Config, base: ActivityWiring, overrides: ActivityOverrides = {}): ActivityDeps {
  const { announce, ...replaced } = overrides;
  const clock = overrides.clock ?? (() => new Date());
  const logger = overrides.logger ?? base.logger.child({ component: 'activities' });
  const own = !base.stores || announce !== undefined || overrides.clock !== undefined;
  // Their own clock is the limits' too: the activities that take from a limit count at the time they run.
  const stores =
    overrides.stores ?? (own ? buildStores(config, base.db, base.client, { announce, clock, limitsClock: overrides.clock }) : base.stores!);
  const operations =
    overrides.operations ?? (own || !base.operations ? buildOperations(config, stores, base.client, logger) : base.operations);
  const report = overrides.report ?? operations.reports.take;
  return {
    stores,
    operations,
    logger,
    clock,
    report,
    voice: overrides.voice ?? voiceProvider(config, { stores, client: base.client, report, logger, clock }),
    whatsapp: overrides.whatsapp ?? whatsappProvider(config, stores),
    llm: overrides.llm ?? meteredLanguageModel(languageModel(config)),
    transcriber: overrides.transcriber !== undefined ? overrides.transcriber : meteredTranscriber(transcriber(config)),
    email: overrides.email ?? meteredEmail(emailProvider(config, stores)),
    emailFrom: { email: config.EMAIL_FROM, name: config.EMAIL_FROM_NAME },
    publicBaseUrl: config.PUBLIC_BASE_URL,
    startWorkflows: (starts) => startEach(base.starter ?? base.client, config.TEMPORAL_TASK_QUEUE, starts, base.starter !== undefined),
    webhooks: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE },
    wakeWaitingCall: callWaker(base.client, logger),
    atsReporters: overrides.atsReporters ?? atsReporters(config),
    ...replaced,
  };
}
