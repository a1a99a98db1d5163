import type { Database } from '../infra/database';
import type { Logger } from '../infra/logger';
import { createCallActivities } from './calls';
import type { VoiceProvider } from './providers/voice';
import type { WhatsAppProvider } from './providers/whatsapp';

/** What activities need from the outside world; tests hand in real or local-stub implementations. */
export interface ActivityDeps {
  db: Database;
  logger: Logger;
  clock: () => Date;
  voice: VoiceProvider;
  whatsapp: WhatsAppProvider;
}

/** All activities, closed over their dependencies (the factory pattern of Temporal's TypeScript samples). */
export function createActivities(deps: ActivityDeps) {
  return {
    async serverTime(): Promise<string> {
      return deps.clock().toISOString();
    },
    ...createCallActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
