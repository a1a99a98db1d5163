import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';
import { createCallReporter } from '../infra/call-reports';
import { startEach } from '../infra/temporal';
import type { ActivityDeps } from '../activities';
import { LogEmailProvider, type EmailProvider } from '../activities/providers/email';
import { languageModel } from '../activities/providers/language-model';
import { SendGridEmailProvider } from '../activities/providers/sendgrid';
import { SimulatorVoiceProvider } from '../activities/providers/simulator';
import { LogWhatsAppProvider, type WhatsAppProvider } from '../activities/providers/whatsapp';
import { CloudWhatsAppProvider, cloudApiOptions, whatsAppTemplates } from '../activities/providers/whatsapp-cloud';
import { VapiVoiceProvider } from '../activities/providers/vapi';
import type { ReportCallOutcome, VoiceProvider } from '../activities/providers/voice';
import { VAPI_EVENTS_PATH } from '../shared/public-urls';

/** Chooses the providers named by the configuration and wires them to the database and Temporal. */
export function buildActivityDeps(config: Config, base: { db: Database; client: Client; logger: Logger; clock?: () => Date }): ActivityDeps {
  const clock = base.clock ?? (() => new Date());
  const logger = base.logger.child({ component: 'activities' });
  const report = createCallReporter({ db: base.db, client: base.client, logger });
  return {
    db: base.db,
    logger,
    clock,
    report,
    voice: voiceProvider(config, { report, logger, clock }),
    whatsapp: whatsappProvider(config, base.db),
    llm: languageModel(config),
    email: emailProvider(config, base.db),
    emailFrom: { email: config.EMAIL_FROM, name: config.EMAIL_FROM_NAME },
    publicBaseUrl: config.PUBLIC_BASE_URL,
    startWorkflows: (starts) => startEach(base.client, config.TEMPORAL_TASK_QUEUE, starts),
  };
}

function voiceProvider(config: Config, deps: { report: ReportCallOutcome; logger: Logger; clock: () => Date }): VoiceProvider {
  if (config.VOICE_PROVIDER === 'simulator') return new SimulatorVoiceProvider({ callSeconds: config.SIMULATOR_CALL_SECONDS, ...deps });
  // loadConfig guarantees the Vapi settings when the provider is vapi.
  return new VapiVoiceProvider({
    apiKey: config.VAPI_API_KEY!,
    baseUrl: config.VAPI_BASE_URL,
    timeoutMs: config.VAPI_TIMEOUT_MS,
    phoneNumberId: config.VAPI_PHONE_NUMBER_ID!,
    webhookSecret: config.VAPI_WEBHOOK_SECRET!,
    serverUrl: config.VAPI_SERVER_URL ?? `${config.PUBLIC_BASE_URL}${VAPI_EVENTS_PATH}`,
    serverCredentialId: config.VAPI_SERVER_CREDENTIAL_ID,
  });
}

function whatsappProvider(config: Config, db: Database): WhatsAppProvider {
  if (config.WHATSAPP_PROVIDER === 'log') return new LogWhatsAppProvider(db);
  return new CloudWhatsAppProvider(cloudApiOptions(config), whatsAppTemplates(config));
}

function emailProvider(config: Config, db: Database): EmailProvider {
  if (config.EMAIL_PROVIDER === 'log') return new LogEmailProvider(db);
  // loadConfig guarantees the key when the provider is sendgrid.
  return new SendGridEmailProvider({ apiKey: config.SENDGRID_API_KEY!, baseUrl: config.SENDGRID_BASE_URL, timeoutMs: config.SENDGRID_TIMEOUT_MS });
}
