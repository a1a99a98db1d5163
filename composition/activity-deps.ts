import { erasureStops } from './erasure';
import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';
import { startEach } from '../infra/temporal';
import { createCallReporter } from '../api/calls/reports';
import type { ActivityDeps } from '../activities/deps';
import { announcer } from './webhook-dispatch';
import { emailProvider, languageModel, transcriber, voiceProvider, whatsappProvider } from './providers';
import { meteredEmail, meteredLanguageModel, meteredTranscriber } from './metered-providers';
import { budgets } from '../infra/budgets';

export interface ActivityWiring {
  db: Database;
  client: Client;
  logger: Logger;
  /** A client on the worker's own connection: a bulk request's workflows start eagerly on this worker. */
  starter?: Client;
}

/**
 * The activities' dependencies: the configured providers wired to the database and Temporal. Tests replace
 * any of them through `overrides` (a voice provider that fails, a clock of the time-skipping server).
 */
export function buildActivityDeps(config: Config, base: ActivityWiring, overrides: Partial<ActivityDeps> = {}): ActivityDeps {
  const clock = overrides.clock ?? (() => new Date());
  const logger = overrides.logger ?? base.logger.child({ component: 'activities' });
  const report = overrides.report ?? createCallReporter({ db: base.db, client: base.client, logger });
  return {
    db: base.db,
    logger,
    clock,
    report,
    voice: overrides.voice ?? voiceProvider(config, { db: base.db, client: base.client, report, logger, clock }),
    whatsapp: overrides.whatsapp ?? whatsappProvider(config, base.db),
    llm: overrides.llm ?? meteredLanguageModel(languageModel(config)),
    questionBudget: budgets(base.db, config).ai,
    transcriber: overrides.transcriber !== undefined ? overrides.transcriber : meteredTranscriber(transcriber(config)),
    email: overrides.email ?? meteredEmail(emailProvider(config, base.db)),
    emailFrom: { email: config.EMAIL_FROM, name: config.EMAIL_FROM_NAME },
    publicBaseUrl: config.PUBLIC_BASE_URL,
    startWorkflows: (starts) => startEach(base.starter ?? base.client, config.TEMPORAL_TASK_QUEUE, starts, base.starter !== undefined),
    announce: announcer(base.db, base.client, config.TEMPORAL_TASK_QUEUE, clock),
    webhooks: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE },
    erasureStops: erasureStops(base.client, logger),
    ...overrides,
  };
}
