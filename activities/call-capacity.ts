import { slotHolder } from '../stores/call-slots';
import { maxConcurrentCalls } from '../infra/documents/workspaces';
import type { CallStatus } from '../shared/calls/schema';
import { LOST_REPORT_CHECKS, slotLeaseMs } from '../shared/calls/capacity';
import type { CallActivityDeps, CallChanges } from './call-changes';
import { contactRules, SUPPRESSED, type HeldContact } from './call-contact';
import { callEvents } from '../stores/calls';

/** The workspace's calling slots (max_concurrent_calls): taking one for an attempt, and giving it back. */
export function createCallCapacityActivities({ stores, clock, voice }: CallActivityDeps, changes: CallChanges) {
  const { calls, load, giveSlotBack, scheduled } = changes;
  const rules = contactRules({ ...changes, stores });
  return {
    /**
     * One of the workspace's calling slots for the attempt, or, when all are held, the call shown waiting for
     * capacity. `reportWithinMs`: the workflow's report wait, for a provider that does not give its own.
     * `dialAt`: a call that dials at once is shown scheduled (`markScheduled`) in this write, not one of its own;
     * the workflow gives it to a take's first look only.
     * `windowAt` (the workflow's clock): the calling window is decided first
     * (call-contact.ts), and a dial it holds back takes no slot. A phone suppressed for voice takes none either.
     * `status`: the call's, as the take left it (the workflow shows it operators).
     */
    async takeCallSlot(
      callId: string,
      attempt: number,
      reportWithinMs: number,
      dialAt: number | null,
      windowAt: number,
    ): Promise<{ taken: boolean; held?: HeldContact; status: CallStatus }> {
      const call = await load(callId);
      // The first look of a take (the only one given dialAt) that finds the call shown scheduled already runs
      // again after an execution that wrote it and may have stopped before announcing it (its worker died): it
      // repeats the change that showed it, which the store finds made and announces again (nothing is made
      // twice). Otherwise no later write would, and the event was lost.
      const shown = callEvents.scheduled(call);
      const showAgain = async () => {
        if (dialAt !== null && calls.hasRecorded(call, shown)) await calls.change(call, { events: [shown] });
      };
      // Taken by an earlier execution of this activity (a retry, or a replayed workflow task).
      if (call.capacity_slot?.holder === slotHolder(callId, attempt)) {
        await showAgain();
        return { taken: true, status: call.status };
      }
      const workspace = await stores.workspaces.get(call.workspace_id);
      // The suppression list, read right before each dial: a phone suppressed for voice while the call waited
      // is never dialled.
      if (await rules.suppressed(call, workspace, ['voice'])) return { taken: false, held: SUPPRESSED, status: call.status };
      // The calling window, looked at each time the call looks for a slot: one due at night waits for morning.
      const decision = await rules.decide(call, workspace, 'dial', windowAt);
      if (!decision.go) return { taken: false, held: decision, status: ('status' in decision && decision.status) || call.status };
      // Consent, where the workspace requires it now (it may have turned it on after the call was made).
      const consent = await rules.requireConsent(call, workspace, windowAt);
      if (!consent.go) return { taken: false, held: consent, status: ('status' in consent && consent.status) || call.status };
      // Then the workspace's cap of dials to the phone in 24 hours, which holds the dial the same way.
      const capped = await rules.capDial(call, workspace, attempt, windowAt);
      if (!capped.go) return { taken: false, held: capped, status: ('status' in capped && capped.status) || call.status };
      const lease = slotLeaseMs(voice.reportWithinMs ?? reportWithinMs, LOST_REPORT_CHECKS);
      const now = clock();
      const slot = await stores.callSlots.take(
        call.workspace_id,
        slotHolder(callId, attempt),
        maxConcurrentCalls(workspace),
        new Date(now.getTime() + lease),
        now,
        // Left beside a slot when all are held: its release tells this call to look again.
        { waiter: callId },
      );
      // Recorded once: a later look, or a retry after the write, finds it.
      const schedule = dialAt !== null && call.scheduled_for === null ? scheduled(call, new Date(dialAt)) : null;
      if (slot && !schedule) {
        await calls.note(callId, { capacity_slot: slot });
        await showAgain();
        return { taken: true, status: call.status };
      }
      if (slot && schedule) {
        await calls.change(call, { events: [schedule.event], set: { ...schedule.set, capacity_slot: slot } });
        return { taken: true, status: call.status };
      }
      if (call.status !== 'waiting_for_capacity' || schedule) {
        await calls.change(call, {
          to: 'waiting_for_capacity',
          events: schedule ? [schedule.event] : [],
          set: { ...schedule?.set, next_attempt_at: null },
        });
      } else await showAgain();
      return { taken: false, status: 'waiting_for_capacity' };
    },

    /** Gives the attempt's calling slot back (the provider was busy: the call waits again). */
    async releaseCallSlot(callId: string): Promise<void> {
      await giveSlotBack(await load(callId));
    },
  };
}
