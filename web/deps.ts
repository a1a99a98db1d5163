import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import type { Operations } from '../operations';
import type { Stores } from '../stores';

/** What the pages are built from (composition/ wires them beside the API, on the same server). */
export interface WebDeps {
  config: Config;
  /** The same stores as the API's (composition/stores.ts). */
  stores: Stores;
  /** The same use cases as the API's: the candidate's steps, their own suppressions, the dashboard's reviews. */
  operations: Operations;
  logger: Logger;
  /** The clock that decides whether an answer is in time. */
  now(): Date;
}
