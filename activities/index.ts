import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';

/** What activities need from the outside world; tests hand in real or local-stub implementations. */
export interface ActivityDeps {
  db: Database;
  logger: Logger;
  clock: () => Date;
}

/** All activities, closed over their dependencies (the factory pattern of Temporal's TypeScript samples). */
export function createActivities(deps: ActivityDeps) {
  return {
    async serverTime(): Promise<string> {
      return deps.clock().toISOString();
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
