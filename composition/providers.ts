import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import { startEach } from '../infra/temporal';
import type { Stores } from '../stores';
import type { EmailProvider } from '../providers/email/port';
import { LogEmailProvider } from '../providers/email/log';
import { SendGridEmailProvider } from '../providers/email/sendgrid';
import type { LanguageModel } from '../providers/llm/port';
import { OfflineLanguageModel } from '../providers/llm/offline';
import { OpenAiLanguageModel } from '../providers/llm/openai';
import type { Transcriber } from '../providers/transcription/port';
import { OpenAiTranscriber } from '../providers/transcription/openai';
import type { ReportAttempt, VoiceProvider } from '../providers/voice/port';
import { SimulatorVoiceProvider } from '../providers/voice/simulator';
import type * as VapiAdapter from '../providers/voice/vapi';
import type { VapiCallOptions } from '../providers/voice/vapi-assistant';
import type { WhatsAppProvider } from '../providers/whatsapp/port';
import { LogWhatsAppProvider } from '../providers/whatsapp/log';
import { CloudWhatsAppProvider, WhatsAppTemplateCatalog, type CloudApiOptions } from '../providers/whatsapp/cloud';
import { VAPI_EVENTS_PATH } from '../shared/public-urls';
import type { RealtimeVoice } from '../providers/realtime/port';
import { simulatorRealtime } from '../providers/realtime/simulator';
import { openAiRealtime } from '../providers/realtime/openai';
import type { AtsReporter, SendJson } from '../providers/ats/port';
import { greenhouseReporter } from '../providers/ats/greenhouse';
import { ashbyCandidatePhone, ashbyReporter } from '../providers/ats/ashby';
import { sendJson } from '../infra/webhooks/outbound';
import type { PartnerAts } from '../shared/partners/schema';
import { simulatedCallStart } from '../workflows/simulated-call';

/**
 * Which adapter serves each port, chosen by the configuration (loadConfig has checked that a chosen
 * provider's settings are all there, hence the `!`s). The API and the worker both take theirs from here.
 */

/** OpenAI (or a compatible server) when a key is configured; otherwise the offline parser and generators. */
export function languageModel(config: Config): LanguageModel {
  if (!config.OPENAI_API_KEY) return new OfflineLanguageModel();
  return new OpenAiLanguageModel({
    apiKey: config.OPENAI_API_KEY,
    baseUrl: config.OPENAI_BASE_URL,
    model: config.OPENAI_MODEL,
    timeoutMs: config.OPENAI_TIMEOUT_MS,
    maxRetries: config.OPENAI_MAX_RETRIES,
  });
}

/** Live interviews' realtime speech (docs/live-interviews.md): OpenAI Realtime, or the simulator, which needs no key. */
export function realtimeVoice(config: Config): RealtimeVoice {
  if (config.REALTIME_PROVIDER !== 'openai') return simulatorRealtime();
  return openAiRealtime({
    apiKey: config.OPENAI_API_KEY!,
    baseUrl: config.OPENAI_BASE_URL,
    model: config.OPENAI_REALTIME_MODEL,
    transcribeModel: config.OPENAI_TRANSCRIBE_MODEL,
    voice: config.OPENAI_REALTIME_VOICE,
    connectTimeoutMs: config.OPENAI_REALTIME_CONNECT_TIMEOUT_MS,
  });
}

/** OpenAI's transcription with a key; without one there is none, and recorded answers go unassessed. */
export function transcriber(config: Config): Transcriber | null {
  if (!config.OPENAI_API_KEY) return null;
  return new OpenAiTranscriber({
    apiKey: config.OPENAI_API_KEY,
    baseUrl: config.OPENAI_BASE_URL,
    model: config.OPENAI_TRANSCRIBE_MODEL,
    timeoutMs: config.OPENAI_TIMEOUT_MS,
    maxRetries: config.OPENAI_MAX_RETRIES,
  });
}

function cloudApiOptions(config: Config): CloudApiOptions {
  return {
    baseUrl: config.WHATSAPP_BASE_URL.replace(/\/+$/, ''),
    version: config.WHATSAPP_API_VERSION,
    accessToken: config.WHATSAPP_ACCESS_TOKEN!,
    phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID!,
    businessAccountId: config.WHATSAPP_BUSINESS_ACCOUNT_ID!,
    timeoutMs: config.WHATSAPP_TIMEOUT_MS,
  };
}

/** The WhatsApp template definitions call/initiate is checked against; the log provider has none. */
export function whatsappTemplates(config: Config): WhatsAppTemplateCatalog | null {
  if (config.WHATSAPP_PROVIDER !== 'cloud') return null;
  return new WhatsAppTemplateCatalog(cloudApiOptions(config), config.WHATSAPP_TEMPLATE_CACHE_SECONDS);
}

export function whatsappProvider(config: Config, stores: Pick<Stores, 'providerLogs'>): WhatsAppProvider {
  const templates = whatsappTemplates(config);
  if (!templates) return new LogWhatsAppProvider((m) => stores.providerLogs.keepWhatsApp(m));
  return new CloudWhatsAppProvider(cloudApiOptions(config), templates);
}

export function emailProvider(config: Config, stores: Pick<Stores, 'providerLogs'>): EmailProvider {
  if (config.EMAIL_PROVIDER === 'log') return new LogEmailProvider((m) => stores.providerLogs.keepEmail(m));
  return new SendGridEmailProvider({
    apiKey: config.SENDGRID_API_KEY!,
    baseUrl: config.SENDGRID_BASE_URL,
    timeoutMs: config.SENDGRID_TIMEOUT_MS,
  });
}

export type VoiceWiring = {
  stores: Pick<Stores, 'providerLogs'>;
  client: Client;
  report: ReportAttempt;
  logger: Logger;
  clock: () => Date;
};

export function voiceProvider(config: Config, { stores, client, ...deps }: VoiceWiring): VoiceProvider {
  if (config.VOICE_PROVIDER === 'simulator') {
    return new SimulatorVoiceProvider({
      callSeconds: config.SIMULATOR_CALL_SECONDS,
      ...deps,
      store: stores.providerLogs.simulatorCalls,
      deliverAt: async (providerCallId, endsAt) => {
        await startEach(client, config.TEMPORAL_TASK_QUEUE, [simulatedCallStart(providerCallId, endsAt)]);
      },
    });
  }
  // Required here, not imported: Vapi's SDK takes about 0.5 s of CPU to load (in a test file 0.8), which a
  // process on the simulator never needs.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { VapiVoiceProvider } = require('../providers/voice/vapi') as typeof VapiAdapter;
  return new VapiVoiceProvider({
    ...vapiCallOptions(config),
    apiKey: config.VAPI_API_KEY!,
    baseUrl: config.VAPI_BASE_URL,
    timeoutMs: config.VAPI_TIMEOUT_MS,
    reportGraceSeconds: config.VAPI_REPORT_GRACE_SECONDS,
  });
}

/** What every Vapi assistant of ours carries from the settings: its dials' and its call-backs' alike. */
export function vapiCallOptions(config: Config): VapiCallOptions {
  return {
    maxCallSeconds: config.VAPI_MAX_CALL_SECONDS,
    phoneNumberId: config.VAPI_PHONE_NUMBER_ID ?? '',
    webhookSecret: config.VAPI_WEBHOOK_SECRET ?? '',
    serverUrl: config.VAPI_SERVER_URL ?? `${config.PUBLIC_BASE_URL}${VAPI_EVENTS_PATH}`,
    serverCredentialId: config.VAPI_SERVER_CREDENTIAL_ID,
  };
}

/** Requests to an ATS's API, through the webhooks' SSRF guard (docs/ats/). */
const atsClient =
  (config: Config): SendJson =>
  (method, url, headers, body) =>
    sendJson(method, url, headers, body, { timeoutMs: config.PARTNER_TIMEOUT_MS, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE });

/** What an ATS door asks of its ATS while it answers (Ashby's record of a candidate's phone). */
export function atsLookups(config: Config) {
  return {
    ashbyCandidatePhone: (apiKey: string, id: string) =>
      ashbyCandidatePhone(atsClient(config), { apiUrl: config.ASHBY_API_URL }, apiKey, id),
  };
}

/** Each ATS's reports of its orders' results (docs/ats/). */
export function atsReporters(config: Config): Record<PartnerAts, AtsReporter> {
  const send = atsClient(config);
  const hosts = config.GREENHOUSE_CALLBACK_HOSTS.split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return { greenhouse: greenhouseReporter(send, { hosts }), ashby: ashbyReporter(send, { apiUrl: config.ASHBY_API_URL }) };
}
