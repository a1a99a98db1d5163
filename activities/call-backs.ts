import type { CallAttempt } from '../infra/documents/calls';
import { maxConcurrentCalls } from '../infra/documents/workspaces';
import { LOST_REPORT_CHECKS, slotLeaseMs } from '../shared/calls/capacity';
import type { CallStatus } from '../shared/calls/schema';
import { slotHolder } from '../stores/call-slots';
import type { CallActivityDeps, CallChanges } from './call-changes';

/** A candidate's call-back to the workspace's number, taken by the call's workflow (workflows/call-state.ts). */
export function createCallBackActivities({ stores, clock, voice }: CallActivityDeps, changes: CallChanges) {
  const { calls, load } = changes;
  return {
    /**
     * Records the call-back as the call's attempt `attempt` (`direction: inbound`, under way), holding one of
     * the workspace's calling slots. No calling window and no dial cap hold it: the candidate called. `begun`
     * false when the call no longer waits (erased or ended meanwhile), when it was never dialled, or when every
     * slot of max_concurrent_calls is held (operations/call-backs.ts looked for a free one; another took it
     * since): nothing is recorded, and the gate's identity check then finds no attempt and ends the call.
     */
    async beginCallBack(
      callId: string,
      attempt: number,
      providerCallId: string,
      reportWithinMs: number,
      at: number,
    ): Promise<{ begun: boolean; status: CallStatus }> {
      const call = await load(callId);
      // Recorded by an earlier execution of this activity.
      if (call.attempts[attempt - 1]?.provider_call_id === providerCallId) return { begun: true, status: call.status };
      const dialled = call.attempts.some((a) => (a.direction ?? 'outbound') === 'outbound');
      if (call.erased_at || call.status !== 'scheduled' || call.attempts.length !== attempt - 1 || !dialled) {
        return { begun: false, status: call.status };
      }
      const workspace = await stores.workspaces.get(call.workspace_id);
      const now = new Date(at);
      const leaseUntil = new Date(now.getTime() + slotLeaseMs(voice.reportWithinMs ?? reportWithinMs, LOST_REPORT_CHECKS));
      const holder = slotHolder(callId, attempt);
      const cap = maxConcurrentCalls(workspace);
      const slot = await stores.callSlots.take(call.workspace_id, holder, cap, leaseUntil, now);
      if (!slot) return { begun: false, status: call.status };
      const record: CallAttempt = {
        number: attempt,
        direction: 'inbound',
        provider: voice.name,
        provider_call_id: providerCallId,
        started_at: clock(),
        ended_at: null,
        outcome: null,
        failure_reason: null,
      };
      const changed = await calls.change(call, {
        to: 'in_progress',
        push: { attempts: record },
        set: { next_attempt_at: null, capacity_slot: slot },
      });
      return { begun: true, status: changed?.status ?? 'in_progress' };
    },
  };
}
