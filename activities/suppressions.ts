import type { ActivityDeps } from './deps';
import type { CallStatus } from '../shared/calls/schema';

/** Calls an opt-out cancels: those not ended, and not being cancelled already. */
const STOPPABLE: CallStatus[] = ['scheduled', 'waiting_for_capacity', 'in_progress'];

/** What an opt-out sets moving beyond the ledger, which every contact reads itself (docs/contact-rules.md). */
export function createSuppressionActivities({ db }: Pick<ActivityDeps, 'db'>) {
  return {
    /**
     * The calls that have not ended of the phones the entries suppress for voice, each in its entry's
     * workspace: scheduled, waiting for capacity, between attempts, or in an attempt (which finishes, and is
     * followed by no retry and no fallback). Found by the calls' phone: MongoDB answers from the `by_phone`
     * index; FerretDB reads the calls through, which an opt-out, rare and off every request's path, can afford.
     */
    async callsToStop(suppressionIds: string[]): Promise<string[]> {
      const entries = await Promise.all(suppressionIds.map((id) => db.suppressions.findOne({ _id: id })));
      const found = await Promise.all(
        entries.map((e) =>
          e?.phone && e.channels.includes('voice')
            ? db.calls
                .find({ 'candidate.phone': e.phone, workspace_id: e.workspace_id, status: { $in: STOPPABLE } }, { projection: { _id: 1 } })
                .toArray()
            : [],
        ),
      );
      return [...new Set(found.flat().map((c) => c._id))];
    },
  };
}

export type SuppressionActivities = ReturnType<typeof createSuppressionActivities>;
