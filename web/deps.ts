import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Budgets } from '../infra/budgets';
import type { Logger } from '../infra/logger';
import type { InterviewDoc } from '../infra/records/interviews';
import type { Announce } from '../infra/webhooks/events';

/** What the pages are built from (composition/ wires them beside the API, on the same server). */
export interface WebDeps {
  config: Config;
  db: Database;
  logger: Logger;
  /** The clock that decides whether an answer is in time. */
  now(): Date;
  /** Tells the interview's workflow that the candidate started or finished (composition/interview-signals.ts). */
  interviewChanged(interview: InterviewDoc): Promise<void>;
  /** The per-address and per-link limits of the pages, shared with the API (infra/budgets.ts). */
  budgets: Budgets;
  /** Cancels the waiting calls of new opt-outs now (composition/opt-outs.ts); the ledger is in force already. */
  optedOut(suppressionIds: string[]): Promise<void>;
  /** Announces the candidate's steps (the interview started) to the workspace's webhooks. */
  announce: Announce;
}
