import { candidateZones } from '../infra/phone-zones';
import { callingWindowOf, defaultTimezone, maxDialsPerPhonePerDay } from '../infra/documents/workspaces';
import { nextTimeInZones } from '../shared/calls/working-hours';
import { windowHours } from '../shared/contact/zones';
import type { CallDoc } from '../infra/documents/calls';
import type { WorkspaceDoc } from '../infra/documents/workspaces';
import { callEvents } from '../stores/calls';
import type { CallStatus } from '../shared/calls/schema';
import type { SuppressionChannel } from '../shared/suppressions/schema';
import type { DeferralReason } from '../shared/contact/reasons';
import type { CallActivityDeps, CallChanges } from './call-changes';

/** A moment the call reaches the candidate: a dial, or one of its WhatsApp messages. */
export type ContactKind = 'dial' | 'pre_call' | 'fallback';

/**
 * What the contact rules say of a contact due now: go; wait until `at` (recorded as a deferral, which left the
 * call in `status`); or never, because the candidate's zones share no moment of the calling window, or the
 * phone is suppressed.
 */
export type ContactDecision = { go: true } | HeldContact;
export type HeldContact = { go: false; at: number; status?: CallStatus } | { go: false; never: true; optedOut?: true };

/** How long a dial held for consent waits before it looks at the workspace's requirement again. */
export const CONSENT_LOOK_AGAIN_MS = 3_600_000;

/** A dial refused because the phone is suppressed for voice: the call ends cancelled, `opted_out` (the API's word). */
export const SUPPRESSED: HeldContact = { go: false, never: true, optedOut: true };

/**
 * The rules above the request, decided at the moment of contact with the workflow's clock (docs/contact-rules.md):
 * the workspace's calling window, as it is set now, in every one of the candidate's zones. A dial is decided in
 * the take of its calling slot (call-capacity.ts), which reads the call and the workspace already; a message by
 * `contactWindow`.
 */
export function contactRules({ calls, scheduled, stores }: Pick<CallChanges, 'calls' | 'scheduled'> & Pick<CallActivityDeps, 'stores'>) {
  /** The candidate's zones: fixed when the call was made, or, for a call made before zones, found now. */
  const zonesOf = (call: CallDoc, fallback: string) => call.timezones ?? candidateZones(undefined, call.candidate.phone, fallback);

  return {
    /**
     * Whether the candidate's phone is suppressed for any of `channels` in the call's workspace: the list as it
     * is now, read right before each dial and each message (docs/contact-rules.md).
     */
    async suppressed(call: CallDoc, workspace: Readonly<WorkspaceDoc> | null, channels: SuppressionChannel[]): Promise<boolean> {
      const refused = await stores.suppressions.channelsFor(workspace, { phone: call.candidate.phone, email: call.candidate.email });
      return channels.some((c) => refused.has(c));
    },

    /**
     * Whether the contact of `kind` may go out at `now`. A deferred dial or pre-call message shows the call
     * scheduled for the window's next moment, with `call.scheduled` (and the first scheduling's own event, for
     * a call not shown scheduled yet: a first dial due at once); a deferred fallback is recorded only, as its
     * call has ended. Recording is once per `now`, so a retry records nothing twice.
     */
    async decide(call: CallDoc, workspace: Readonly<WorkspaceDoc> | null, kind: ContactKind, now: number): Promise<ContactDecision> {
      const window = callingWindowOf(workspace);
      if (!window) return { go: true };
      const at = nextTimeInZones(now, windowHours(window), zonesOf(call, defaultTimezone(workspace)));
      if (at === null) return { go: false, never: true };
      if (at <= now) return { go: true };
      return hold(call, kind, now, at, 'calling_window');
    },

    /**
     * The workspace's requirement of consent to AI voice calls, as it is set now: a call made without consent
     * before the workspace turned it on is held, and looks again after CONSENT_LOOK_AGAIN_MS.
     */
    async requireConsent(call: CallDoc, workspace: Readonly<WorkspaceDoc> | null, now: number): Promise<ContactDecision> {
      if (workspace?.settings?.voice_consent_required !== true || call.candidate.consent) return { go: true };
      return hold(call, 'dial', now, now + CONSENT_LOOK_AGAIN_MS, 'consent_required');
    },

    /**
     * The workspace's cap of dials to one phone in 24 hours (`max_dials_per_phone_per_day`), across its calls:
     * the dial `<call>/<attempt>` takes one of the phone's dials (stores/dial-caps.ts), or is held, as the
     * calling window holds it, until the oldest of them is 24 hours old. Decided after the window says go.
     */
    async capDial(call: CallDoc, workspace: Readonly<WorkspaceDoc> | null, attempt: number, now: number): Promise<ContactDecision> {
      const cap = maxDialsPerPhonePerDay(workspace);
      if (cap === null) return { go: true };
      const taken = await stores.dialCaps.take(call.workspace_id, call.candidate.phone, `${call._id}/${attempt}`, cap, new Date(now));
      return taken.go ? taken : hold(call, 'dial', now, taken.at, 'daily_dial_cap');
    },
  };

  /**
   * A contact due at `now` held until `at`, recorded once per `now` with its reason (a retry records nothing
   * twice), the call shown scheduled for `at` unless it is a fallback's (its call has ended).
   */
  async function hold(call: CallDoc, kind: ContactKind, now: number, at: number, reason: DeferralReason): Promise<HeldContact> {
    const shown = scheduled(call, new Date(at));
    const deferral = { from: new Date(now), to: new Date(at), reason };
    const deferred = (call.deferrals ?? []).some((d) => d.from.getTime() === now);
    if (kind === 'fallback') {
      // Its call has ended: recorded once, announced never.
      if (!deferred) await calls.change(call, { push: { deferrals: deferral } });
      return { go: false, at, status: call.status };
    }
    const events = [...(call.scheduled_for === null ? [shown.event] : []), callEvents.deferred(now)];
    // Recorded by an earlier execution, which may have stopped before announcing it: its repeat is found made.
    const changed = deferred
      ? await calls.change(call, { to: 'scheduled', events })
      : await calls.change(call, { to: 'scheduled', events, push: { deferrals: deferral }, set: shown.set });
    return { go: false, at, status: changed?.status ?? 'scheduled' };
  }
}

/** The contact rules for a call's WhatsApp messages (its dials are decided in the take of their slot). */
export function createCallContactActivities({ stores }: CallActivityDeps, changes: CallChanges) {
  const rules = contactRules({ ...changes, stores });
  return {
    async contactWindow(callId: string, kind: Exclude<ContactKind, 'dial'>, now: number): Promise<ContactDecision> {
      const call = await changes.load(callId);
      return rules.decide(call, await stores.workspaces.get(call.workspace_id), kind, now);
    },
  };
}
