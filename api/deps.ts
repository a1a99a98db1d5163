import type Router from '@koa/router';
import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import type { LanguageModel } from '../providers/llm/port';
import type { WhatsAppTemplateCheck } from '../providers/whatsapp/port';
import type { VapiCallOptions } from '../providers/voice/vapi-call-backs';
import type { Operations, WorkflowPort } from '../operations';
import type { Stores } from '../stores';

/** What the API's routes are built from (api/app.ts composes them). */
export interface ApiDeps {
  config: Config;
  /** Every collection, behind its store (stores/), built once per process (composition/stores.ts). */
  stores: Stores;
  /** The use cases the API runs as the pages and the worker do: cancels, erasures, filings (operations/). */
  operations: Operations;
  /** The one way to the workflows (composition/workflow-port.ts): starts, signals, Updates, readiness. */
  workflows: WorkflowPort;
  logger: Logger;
  /** The ai operations' model (offline or OpenAI). */
  llm: LanguageModel;
  /** WhatsApp template definitions call/initiate is checked against; null when the log provider sends nothing. */
  whatsappTemplates: WhatsAppTemplateCheck | null;
  /** What the assistant answering a Vapi call-back carries from the settings (the dials' own). */
  vapiCallOptions: VapiCallOptions;
}

export type RouteFactory = (deps: ApiDeps) => Router;
