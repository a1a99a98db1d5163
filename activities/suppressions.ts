import type { ActivityDeps } from './deps';
import type { CallDoc } from '../infra/documents/calls';
import type { CallStatus } from '../shared/calls/schema';

/** Calls a suppression cancels: those not ended, and not being cancelled already. */
const STOPPABLE: CallStatus[] = ['scheduled', 'waiting_for_capacity', 'in_progress'];

/** What a new suppression sets moving beyond the list, which every contact reads itself (docs/contact-rules.md). */
export function createSuppressionActivities({ stores, operations }: Pick<ActivityDeps, 'stores' | 'operations'>) {
  /**
   * The calls that have not ended of the people the entries suppress for voice, each in its entry's workspace:
   * scheduled, waiting for capacity, between attempts, or in an attempt (which finishes, and is followed by no
   * retry and no fallback). Found from the person index by the entry's phone and email: reads by exact `_id` only.
   */
  async function callsOf(suppressionIds: string[]): Promise<CallDoc[]> {
    const entries = await stores.suppressions.getMany(suppressionIds);
    const found = await Promise.all(
      entries.map(async (e) => {
        if (!e.channels.includes('voice') || (!e.phone && !e.email)) return [];
        const { calls } = await stores.candidates.findPerson(e.workspace_id, { phone: e.phone, email: e.email });
        const docs = await Promise.all(calls.map((id) => stores.calls.get(id)));
        return docs.filter((c): c is CallDoc => c?.workspace_id === e.workspace_id && STOPPABLE.includes(c.status));
      }),
    );
    return [...new Map(found.flat().map((c) => [c._id, c])).values()];
  }

  return {
    /** Cancels those calls through the one cancel (`opted_out`); how many were signalled. */
    async stopCalls(suppressionIds: string[]): Promise<{ cancelled: number }> {
      const cancels = await Promise.all((await callsOf(suppressionIds)).map((call) => operations.cancelCall(call, 'opted_out')));
      return { cancelled: cancels.filter((c) => c.sent).length };
    },
  };
}

export type SuppressionActivities = ReturnType<typeof createSuppressionActivities>;
