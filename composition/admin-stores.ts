import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import type { Announce } from '../infra/webhooks/events';
import { createStores, workspaceStores, type Stores } from '../stores';
import { providerLogStore } from '../stores/provider-logs';

// Apart from composition/stores.ts, which wires the use cases, the providers and Temporal: an admin command
// loads what it uses: a command starts on 0.4 s of CPU, not 0.85.

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
