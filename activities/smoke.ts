import type { ActivityDeps } from './deps';

/** The smoke workflow's one activity: the worker's clock, which proves an activity ran. */
export function createSmokeActivities({ clock }: Pick<ActivityDeps, 'clock'>) {
  return {
    async serverTime(): Promise<string> {
      return clock().toISOString();
    },
  };
}

export type SmokeActivities = ReturnType<typeof createSmokeActivities>;
