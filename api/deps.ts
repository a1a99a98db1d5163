import type Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Budgets } from '../infra/budgets';
import type { Logger } from '../infra/logger';
import type { InterviewDoc } from '../infra/records/interviews';
import type { Announce } from '../infra/webhooks/events';
import type { LanguageModel } from '../providers/llm/port';
import type { WhatsAppTemplateCheck } from '../providers/whatsapp/port';
import type { ErasureStops } from '../stores/erasure';

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
  /** Announces a change to the workspace's webhooks (a WhatsApp message status here; infra/webhooks/events.ts). */
  announce: Announce;
  /** The abuse limits, shared with the pages (infra/budgets.ts). */
  budgets: Budgets;
  /** Sends a webhook delivery again now, through its endpoint's delivery workflow (composition/webhook-dispatch.ts). */
  retryDelivery(workspaceId: string, endpointId: string, eventId: string): Promise<void>;
  /** Cancels the waiting calls of new opt-outs now (composition/opt-outs.ts); the ledger itself is in force already. */
  optedOut(suppressionIds: string[]): Promise<void>;
  /** What an erasure asks of the running workflows (composition/erasure.ts). */
  erasureStops: ErasureStops;
}

export type RouteFactory = (deps: ApiDeps) => Router;

/** What a bulk request (call/initiate, interview/invite) needs: records, workflow starts, announcements. */
export type BulkRequestDeps = Pick<ApiDeps, 'db' | 'temporal' | 'config' | 'logger' | 'announce'>;
