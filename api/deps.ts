import type Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import type { InterviewDoc } from '../infra/documents/interviews';
import type { LanguageModel } from '../providers/llm/port';
import type { WhatsAppTemplateCheck } from '../providers/whatsapp/port';
import type { VapiCallOptions } from '../providers/voice/vapi-call-backs';
import type { Operations } from '../operations';
import type { Stores } from '../stores';

/** What the API's routes are built from (api/app.ts composes them). */
export interface ApiDeps {
  config: Config;
  /** Every collection, behind its store (stores/), built once per process (composition/stores.ts). */
  stores: Stores;
  /** The use cases the API runs as the pages and the worker do: cancels, erasures, filings (operations/). */
  operations: Operations;
  temporal: Client;
  logger: Logger;
  /** The ai operations' model (offline or OpenAI). */
  llm: LanguageModel;
  /** WhatsApp template definitions call/initiate is checked against; null when the log provider sends nothing. */
  whatsappTemplates: WhatsAppTemplateCheck | null;
  /** Signals an interview's workflow of a change, here a resend (composition/interview-signals.ts). */
  interviewChanged(interview: InterviewDoc): Promise<void>;
  /** Sends a webhook delivery again now, through its endpoint's delivery workflow (composition/webhook-signals.ts). */
  retryDelivery(workspaceId: string, endpointId: string, eventId: string): Promise<void>;
  /**
   * Registers the search attributes the calls' and interviews' workflows are started with, where missing,
   * and says whether they all exist (composition/search-attributes.ts); /readyz is 503 until they do.
   */
  searchAttributesReady(): Promise<boolean>;
  /** What the assistant answering a Vapi call-back carries from the settings (the dials' own). */
  vapiCallOptions: VapiCallOptions;
}

export type RouteFactory = (deps: ApiDeps) => Router;

/** What a bulk request (call/initiate, interview/invite) needs: the stores, candidate filing, workflow starts. */
export type BulkRequestDeps = Pick<ApiDeps, 'stores' | 'operations' | 'temporal' | 'config' | 'logger'>;
