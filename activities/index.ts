import type { ActivityDeps } from './deps';
import { createCallActivities } from './calls';
import { createInterviewActivities } from './interviews';
import { createFanOutActivities } from './fan-out';
import { createSimulatorActivities } from './simulator';

/** All activities, closed over their dependencies (the factory pattern of Temporal's TypeScript samples). */
export function createActivities(deps: ActivityDeps) {
  return {
    async serverTime(): Promise<string> {
      return deps.clock().toISOString();
    },
    ...createCallActivities(deps),
    ...createInterviewActivities(deps),
    ...createFanOutActivities(deps),
    ...createSimulatorActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
