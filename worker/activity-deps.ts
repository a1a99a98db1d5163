import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';
import { createCallReporter } from '../infra/call-reports';
import type { ActivityDeps } from '../activities';
import { LogEmailProvider, type EmailProvider } from '../activities/providers/email';
import { languageModel } from '../activities/providers/language-model';
import { SendGridEmailProvider } from '../activities/providers/sendgrid';
import { SimulatorVoiceProvider } from '../activities/providers/simulator';
import { LogWhatsAppProvider } from '../activities/providers/whatsapp';

/** Chooses the providers named by the configuration and wires them to the database and Temporal. */
export function buildActivityDeps(config: Config, base: { db: Database; client: Client; logger: Logger; clock?: () => Date }): ActivityDeps {
  const clock = base.clock ?? (() => new Date());
  const logger = base.logger.child({ component: 'activities' });
  const report = createCallReporter({ db: base.db, client: base.client, logger });
  return {
    db: base.db,
    logger,
    clock,
    voice: new SimulatorVoiceProvider({ callSeconds: config.SIMULATOR_CALL_SECONDS, report, logger, clock }),
    whatsapp: new LogWhatsAppProvider(base.db),
    llm: languageModel(config),
    email: emailProvider(config, base.db),
    emailFrom: { email: config.EMAIL_FROM, name: config.EMAIL_FROM_NAME },
    publicBaseUrl: config.PUBLIC_BASE_URL,
  };
}

function emailProvider(config: Config, db: Database): EmailProvider {
  if (config.EMAIL_PROVIDER === 'log') return new LogEmailProvider(db);
  // loadConfig guarantees the key when the provider is sendgrid.
  return new SendGridEmailProvider({ apiKey: config.SENDGRID_API_KEY!, baseUrl: config.SENDGRID_BASE_URL, timeoutMs: config.SENDGRID_TIMEOUT_MS });
}
