import type Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';
import type { InterviewDoc } from '../infra/records/interviews';
import type { LanguageModel } from '../providers/llm/port';
import type { WhatsAppTemplateCheck } from '../providers/whatsapp/port';

/** What the API's routes are built from (api/app.ts composes them). */
export interface ApiDeps {
  config: Config;
  db: Database;
  temporal: Client;
  logger: Logger;
  /** The ai operations' model (offline or OpenAI). */
  llm: LanguageModel;
  /** WhatsApp template definitions call/initiate is checked against; null when the log provider sends nothing. */
  whatsappTemplates: WhatsAppTemplateCheck | null;
  /** Tells an interview's workflow of a change, here a resend (composition/interview-signals.ts). */
  interviewChanged(interview: InterviewDoc): Promise<void>;
}

export type RouteFactory = (deps: ApiDeps) => Router;
