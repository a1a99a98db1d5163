import type { Database } from '../infra/database';
import type { RateLimiter } from '../infra/rate-limit';
import type { Logger } from '../infra/logger';
import type { FanOutResult, WorkflowStart } from '../shared/workflow-starts';
import type { EmailProvider } from '../providers/email/port';
import type { LanguageModel } from '../providers/llm/port';
import type { Transcriber } from '../providers/transcription/port';
import type { ReportAttempt, VoiceProvider } from '../providers/voice/port';
import type { WhatsAppProvider } from '../providers/whatsapp/port';
import type { Announce } from '../infra/webhooks/events';
import type { ErasureStops } from '../stores/erasure';

/** What activities need from the outside world; tests hand in real or local-stub implementations. */
export interface ActivityDeps {
  db: Database;
  logger: Logger;
  clock: () => Date;
  voice: VoiceProvider;
  /** Stores a provider's report of an attempt and signals the call's workflow (api/calls/reports.ts). */
  report: ReportAttempt;
  whatsapp: WhatsAppProvider;
  llm: LanguageModel;
  /**
   * The workspace budget a new job's question generation spends from: the AI limit of generate-questions
   * (infra/budgets.ts), so invitations cannot get around it.
   */
  questionBudget: RateLimiter;
  /** Speech to text for recorded interview answers; null when none is configured. */
  transcriber: Transcriber | null;
  email: EmailProvider;
  /** Sender of candidate emails; the name defaults to the hiring company's. */
  emailFrom: { email: string; name?: string };
  /** Where candidate-facing links point. */
  publicBaseUrl: string;
  /** Announces a change of a call or an interview to the workspace's webhooks (infra/webhooks/events.ts). */
  announce: Announce;
  /** Whether webhooks may reach private, loopback and link-local addresses, and plain http (WEBHOOK_ALLOW_PRIVATE). */
  webhooks: { allowPrivate: boolean };
  /** What an erasure asks of the running workflows (composition/erasure.ts): the retention sweep's erasures. */
  erasureStops: ErasureStops;
  /** Starts workflows on this worker's task queue, each once ever (infra/temporal.ts, startEach). */
  startWorkflows: (starts: WorkflowStart[]) => Promise<FanOutResult>;
}
