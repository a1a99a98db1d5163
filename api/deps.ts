import type Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';
import type { LanguageModel } from '../providers/llm/port';

/** What the API's routes are built from (api/app.ts composes them). */
export interface ApiDeps {
  config: Config;
  db: Database;
  temporal: Client;
  logger: Logger;
  /** The language model of the AI operations; the one the configuration names when absent. */
  llm?: LanguageModel;
}

export type RouteFactory = (deps: ApiDeps) => Router;
