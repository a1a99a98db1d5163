import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import type { Operations, WorkflowPort } from '../operations';
import type { Stores } from '../stores';

/** What the pages are built from (composition/ wires them beside the API, on the same server). */
export interface WebDeps {
  config: Config;
  /** The same stores as the API's (composition/stores.ts). */
  stores: Stores;
  /** The same use cases as the API's: the candidate's own suppressions are filed through them. */
  operations: Operations;
  logger: Logger;
  /** The clock that decides whether an answer is in time. */
  now(): Date;
  /** The way to the workflows: the interview's is told when the candidate starts or finishes. */
  workflows: Pick<WorkflowPort, 'interviewChanged'>;
}
