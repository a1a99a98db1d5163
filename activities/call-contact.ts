import { candidateZones } from '../infra/phone-zones';
import { callingWindowOf, defaultTimezone } from '../infra/records/workspaces';
import { nextTimeInZones } from '../shared/calls/working-hours';
import { windowHours } from '../shared/contact/zones';
import type { CallDoc } from '../infra/records/calls';
import { callEvents } from '../stores/calls';
import type { CallActivityDeps, CallRecords } from './call-records';

/** A moment the call reaches the candidate: a dial, or one of its WhatsApp messages. */
export type ContactKind = 'dial' | 'pre_call' | 'fallback';

/**
 * What the contact rules say of a contact due now: go; wait until `at` (recorded as a deferral); or never,
 * because the candidate's zones share no moment of the calling window.
 */
export type ContactDecision = { go: true } | { go: false; at: number } | { go: false; never: true };

/**
 * The rules above the request, decided at the moment of contact with the workflow's clock (docs/contact-rules.md):
 * the workspace's calling window, as it is set now, in every one of the candidate's zones.
 */
export function createCallContactActivities({ db }: CallActivityDeps, records: CallRecords) {
  const { calls, load, releaseHeldSlot } = records;

  /** The candidate's zones: fixed when the call was made, or, for a call made before zones, found now. */
  const zonesOf = (call: CallDoc, fallback: string) => call.timezones ?? candidateZones(undefined, call.candidate.phone, fallback);

  return {
    /**
     * Whether the contact of `kind` may go out at `now` (the workflow's clock). A deferred dial gives back
     * the slot it holds and shows the call scheduled for the window's next moment, with `call.scheduled`; a
     * deferred message is recorded only. Recording is once per `now`, so a retry records nothing twice.
     */
    async contactWindow(callId: string, kind: ContactKind, now: number): Promise<ContactDecision> {
      const call = await load(callId);
      const workspace = await db.shared.workspace(call.workspace_id);
      const window = callingWindowOf(workspace);
      if (!window) return { go: true };
      const at = nextTimeInZones(now, windowHours(window), zonesOf(call, defaultTimezone(workspace)));
      if (at === null) return { go: false, never: true };
      if (at <= now) return { go: true };
      const from = new Date(now);
      if ((call.deferrals ?? []).some((d) => d.from.getTime() === now)) return { go: false, at };
      const deferral = { from, to: new Date(at), reason: 'calling_window' as const };
      if (kind === 'fallback') {
        await calls.change(call, { push: { deferrals: deferral } });
        return { go: false, at };
      }
      await releaseHeldSlot(call);
      await calls.change(call, {
        to: 'scheduled',
        events: [callEvents.deferred(now)],
        push: { deferrals: deferral },
        set: {
          capacity_slot: null,
          next_attempt_at: new Date(at),
          ...(call.scheduled_for === null ? { scheduled_for: new Date(at) } : {}),
        },
      });
      return { go: false, at };
    },
  };
}
