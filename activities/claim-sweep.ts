import type { ActivityDeps } from './deps';

/** The claim sweep's one activity (workflows/claim-sweep.ts). */
export function createClaimSweepActivities({ stores, logger }: Pick<ActivityDeps, 'stores' | 'logger'>) {
  return {
    /** Removes the claims spent an hour before `nowMs` (the sweep's own time), and says how many. */
    async sweepExpiredClaims(nowMs: number): Promise<number> {
      const removed = await stores.sweepClaims(new Date(nowMs));
      if (removed > 0) logger.info({ removed }, 'spent claims removed');
      return removed;
    },
  };
}

export type ClaimSweepActivities = ReturnType<typeof createClaimSweepActivities>;
