import type { Client } from '@temporalio/client';
import type { Collection } from 'mongodb';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';
import { createCallReporter } from '../api/calls/reports';
import { startEach } from '../infra/temporal';
import type { ActivityDeps } from '../activities';
import { type EmailProvider } from '../providers/email/port';
import { LogEmailProvider } from '../providers/email/log';
import { languageModel } from '../providers/llm/from-config';
import { SendGridEmailProvider } from '../providers/email/sendgrid';
import { SimulatorVoiceProvider, type SimulatedCallDoc } from '../providers/voice/simulator';
import { type WhatsAppProvider } from '../providers/whatsapp/port';
import { LogWhatsAppProvider } from '../providers/whatsapp/log';
import { CloudWhatsAppProvider, cloudApiOptions, whatsAppTemplates } from '../providers/whatsapp/cloud';
import { VapiVoiceProvider } from '../providers/voice/vapi';
import type { ReportCallOutcome, VoiceProvider } from '../providers/voice/port';
import { VAPI_EVENTS_PATH } from '../shared/public-urls';
import type { WorkflowStart } from '../shared/workflow-starts';
import { simulatedCallWorkflowId } from '../workflows/simulated-call';

export function simulatorStore(db: Database): Collection<SimulatedCallDoc> {
  return db.db.collection<SimulatedCallDoc>('simulator_calls');
}

function simulatedCallStart(providerCallId: string, endsAt: Date): WorkflowStart {
  return {
    workflowType: 'simulatedCallWorkflow',
    workflowId: simulatedCallWorkflowId(providerCallId),
    args: [{ providerCallId, endsAt: endsAt.getTime() }],
    searchAttributes: [],
    summary: `Simulated call ${providerCallId}`,
  };
}

/** Chooses the providers named by the configuration and wires them to the database and Temporal. */
export function buildActivityDeps(
  config: Config,
  base: { db: Database; client: Client; logger: Logger; clock?: () => Date },
): ActivityDeps {
  const clock = base.clock ?? (() => new Date());
  const logger = base.logger.child({ component: 'activities' });
  const report = createCallReporter({ db: base.db, client: base.client, logger });
  return {
    db: base.db,
    logger,
    clock,
    report,
    voice: voiceProvider(config, { db: base.db, client: base.client, report, logger, clock }),
    whatsapp: whatsappProvider(config, base.db),
    llm: languageModel(config),
    email: emailProvider(config, base.db),
    emailFrom: { email: config.EMAIL_FROM, name: config.EMAIL_FROM_NAME },
    publicBaseUrl: config.PUBLIC_BASE_URL,
    startWorkflows: (starts) => startEach(base.client, config.TEMPORAL_TASK_QUEUE, starts),
  };
}

type VoiceDeps = { db: Database; client: Client; report: ReportCallOutcome; logger: Logger; clock: () => Date };

function voiceProvider(config: Config, { db, client, ...deps }: VoiceDeps): VoiceProvider {
  if (config.VOICE_PROVIDER === 'simulator') {
    return new SimulatorVoiceProvider({
      callSeconds: config.SIMULATOR_CALL_SECONDS,
      ...deps,
      store: simulatorStore(db),
      deliverAt: async (providerCallId, endsAt) => {
        await startEach(client, config.TEMPORAL_TASK_QUEUE, [simulatedCallStart(providerCallId, endsAt)]);
      },
    });
  }
  // loadConfig guarantees the Vapi settings when the provider is vapi.
  return new VapiVoiceProvider({
    apiKey: config.VAPI_API_KEY!,
    baseUrl: config.VAPI_BASE_URL,
    timeoutMs: config.VAPI_TIMEOUT_MS,
    maxCallSeconds: config.VAPI_MAX_CALL_SECONDS,
    reportGraceSeconds: config.VAPI_REPORT_GRACE_SECONDS,
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
  return new SendGridEmailProvider({
    apiKey: config.SENDGRID_API_KEY!,
    baseUrl: config.SENDGRID_BASE_URL,
    timeoutMs: config.SENDGRID_TIMEOUT_MS,
  });
}
