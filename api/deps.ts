import type Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';

/** What the API's routes are built from (api/app.ts composes them). */
export interface ApiDeps {
  config: Config;
  db: Database;
  temporal: Client;
  logger: Logger;
}

export type RouteFactory = (deps: ApiDeps) => Router;
