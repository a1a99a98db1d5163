import type { ActivityDeps } from './deps';
import type { CallStatus } from '../shared/calls/schema';
import { personIndex } from '../infra/person-index';

/** Calls an opt-out cancels: those not ended, and not being cancelled already. */
const STOPPABLE: CallStatus[] = ['scheduled', 'waiting_for_capacity', 'in_progress'];

/** What an opt-out sets moving beyond the ledger, which every contact reads itself (docs/contact-rules.md). */
export function createSuppressionActivities({ db }: Pick<ActivityDeps, 'db'>) {
  return {
    /**
     * The calls that have not ended of the people the entries suppress for voice, each in its entry's
     * workspace: scheduled, waiting for capacity, between attempts, or in an attempt (which finishes, and is
     * followed by no retry and no fallback). Found from the person index by the entry's phone and email
     * (infra/person-index.ts): reads by exact `_id` only.
     */
    async callsToStop(suppressionIds: string[]): Promise<string[]> {
      const entries = await Promise.all(suppressionIds.map((id) => db.suppressions.findOne({ _id: id })));
      const found = await Promise.all(
        entries.map(async (e) => {
          if (!e || !e.channels.includes('voice') || (!e.phone && !e.email)) return [];
          const { calls } = await personIndex(db).recordsOf(e.workspace_id, { phone: e.phone, email: e.email });
          const docs = await Promise.all(calls.map((id) => db.calls.findOne({ _id: id })));
          return docs.filter((c) => c?.workspace_id === e.workspace_id && STOPPABLE.includes(c.status)).map((c) => c!._id);
        }),
      );
      return [...new Set(found.flat())];
    },
  };
}

export type SuppressionActivities = ReturnType<typeof createSuppressionActivities>;
