import type { Logger } from '../infra/logger';
import type { Operations } from '../operations';
import type { Stores } from '../stores';
import type { FanOutResult, WorkflowStart } from '../shared/workflow-starts';
import type { EmailProvider } from '../providers/email/port';
import type { LanguageModel } from '../providers/llm/port';
import type { Transcriber } from '../providers/transcription/port';
import type { ReportAttempt, VoiceProvider } from '../providers/voice/port';
import type { WhatsAppProvider } from '../providers/whatsapp/port';
import type { AtsReporter } from '../providers/ats/port';
import type { PartnerAts } from '../shared/partners/schema';

/** What activities need from the outside world; tests hand in real or local-stub implementations. */
export interface ActivityDeps {
  /** Every collection, behind its store (stores/), built once per process (composition/stores.ts). */
  stores: Stores;
  /** The use cases the worker runs as the API does: cancels, erasures, report intake (operations/). */
  operations: Operations;
  logger: Logger;
  clock: () => Date;
  voice: VoiceProvider;
  /** Takes in a provider's report of an attempt (operations/call-reports.ts): the lost-report check's. */
  report: ReportAttempt;
  whatsapp: WhatsAppProvider;
  llm: LanguageModel;
  /** Speech to text for recorded interview answers; null when none is configured. */
  transcriber: Transcriber | null;
  email: EmailProvider;
  /** Sender of candidate emails; the name defaults to the hiring company's. */
  emailFrom: { email: string; name?: string };
  /** Where candidate-facing links point. */
  publicBaseUrl: string;
  /** Whether webhooks may reach private, loopback and link-local addresses, and plain http (WEBHOOK_ALLOW_PRIVATE). */
  webhooks: { allowPrivate: boolean };
  /** Starts workflows on this worker's task queue, each once ever (infra/temporal.ts, startEach). */
  startWorkflows: (starts: WorkflowStart[]) => Promise<FanOutResult>;
  /**
   * Tells a call waiting for capacity that a slot was given back, so it looks again now (composition/call-capacity.ts).
   * A hint: it never throws, and a call that stopped waiting ignores it.
   */
  wakeWaitingCall: (callId: string) => Promise<void>;
  /** Each ATS's reports of its orders' results (providers/ats/, chosen in composition/activity-deps.ts). */
  atsReporters: Record<PartnerAts, AtsReporter>;
}
