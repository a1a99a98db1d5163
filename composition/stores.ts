import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';
import type { Announce } from '../infra/webhooks/events';
import { createOperations, type Operations } from '../operations';
import { createStores, type Stores } from '../stores';
import { announcer } from './webhook-signals';
import { partnerSignaller } from './partner-signals';
import { workflowPort } from './workflow-port';
import { atsLookups, realtimeVoice } from './providers';
import type { RealtimeVoice } from '../providers/realtime/port';

/**
 * The stores and the use cases of a process, built once here (startService) and handed to the API, the pages
 * and the worker alike; an operator's commands build theirs in composition/admin-stores.ts, without Temporal.
 * Tests that run activities on their own (a time-skipping server's clock, an announcer that fails) build
 * theirs through here too. `announce` replaces the announcer wired to the delivery
 * workflows; `clock` dates the events it makes; `limitsClock` is the time the limits count requests at.
 */
export function buildStores(
  config: Config,
  db: Database,
  temporal: Client,
  opts: { announce?: Announce; clock?: () => Date; limitsClock?: () => Date } = {},
): Stores {
  return createStores(db, {
    announce: opts.announce ?? announcer(db, temporal, config.TEMPORAL_TASK_QUEUE, opts.clock),
    partnerChanged: partnerSignaller(temporal, config.TEMPORAL_TASK_QUEUE),
    config,
    limitsClock: opts.limitsClock,
  });
}

export function buildOperations(config: Config, stores: Stores, temporal: Client, logger: Logger, realtime?: RealtimeVoice): Operations {
  const workflows = workflowPort(temporal, config, logger);
  return createOperations({
    stores,
    workflows,
    config,
    logger,
    realtime: realtime ?? realtimeVoice(config),
    atsLookups: atsLookups(config),
  });
}
