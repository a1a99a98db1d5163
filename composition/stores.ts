import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';
import type { Announce } from '../infra/webhooks/events';
import { createOperations, type Operations } from '../operations';
import { createStores, workspaceStores, type Stores } from '../stores';
import { providerLogStore } from '../stores/provider-logs';
import { announcer } from './webhook-signals';
import { workflowPort } from './workflow-port';
import { realtimeVoice } from './providers';
import type { RealtimeVoice } from '../providers/realtime/port';

/**
 * The stores and the use cases of a process, built once here (startService) and handed to the API, the pages
 * and the worker alike. Tests that run activities on their own (a time-skipping server's clock, an announcer
 * that fails) build theirs through here too. `announce` replaces the announcer wired to the delivery
 * workflows; `clock` dates the events it makes.
 */
export function buildStores(
  config: Config,
  db: Database,
  temporal: Client,
  opts: { announce?: Announce; clock?: () => Date } = {},
): Stores {
  return createStores(db, { announce: opts.announce ?? announcer(db, temporal, config.TEMPORAL_TASK_QUEUE, opts.clock), config });
}

export function buildOperations(config: Config, stores: Stores, temporal: Client, logger: Logger, realtime?: RealtimeVoice): Operations {
  const workflows = workflowPort(temporal, config, logger);
  return createOperations({ stores, workflows, config, logger, realtime: realtime ?? realtimeVoice(config) });
}

/**
 * The stores an operator's command needs (scripts/admin.ts, and the benches and tests that make workspaces):
 * workspaces with their keys and sessions, and the log providers' messages. None of them announces anything,
 * so they need neither Temporal nor an announcer.
 */
export function adminStores(db: Database): Pick<Stores, 'workspaces' | 'sessions' | 'providerLogs'> {
  return { ...workspaceStores(db), providerLogs: providerLogStore(db) };
}

/**
 * Every store, for an operator's command that walks the records (admin people:index). It changes no call or
 * interview, so it announces nothing, and needs no Temporal.
 */
export function walkingStores(db: Database, config: Config): Stores {
  const announce: Announce = async () => {
    throw new Error('an admin command announces nothing');
  };
  return createStores(db, { announce, config });
}
