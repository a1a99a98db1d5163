import { callWindows } from '../infra/documents/calls';
import { coerceExtracted } from '../shared/calls/extracted-values';
import { FORM_REPORT_ATTEMPT, firstMomentInside } from '../shared/calls/candidate-link';
import type { CallStatus } from '../shared/calls/schema';
import { callEvents } from '../stores/calls';
import type { CallActivityDeps, CallChanges } from './call-changes';

/**
 * What the candidate chose on their link (shared/calls/candidate-link.ts), as the call's workflow carries it
 * out: whether the calling window lets a call ring now (or when it first does), the next dial moved to their
 * time, and the call completed by their written answers. Each is idempotent under the activity's retries.
 */
export function createCallCandidateChoiceActivities({ stores }: CallActivityDeps, changes: CallChanges) {
  const { calls, load } = changes;
  return {
    /**
     * Whether a call may ring at `now` under the call's working hours and the workspace's calling window, in the
     * candidate's zones; else the first moment both allow (null: none within eight days). Only looked at: the
     * dial itself is decided, with every rule, when it takes its slot.
     */
    async candidateDialWindow(callId: string, now: number): Promise<{ go: true } | { go: false; at: number | null }> {
      const call = await load(callId);
      const at = firstMomentInside(now, callWindows(call, await stores.workspaces.get(call.workspace_id)));
      return at === now ? { go: true } : { go: false, at };
    },

    /**
     * The next dial moved to `at` by the candidate, at the workflow's `now`: recorded once (a retry finds its
     * move made), with `call.rescheduled`.
     */
    async rescheduleCall(callId: string, at: number, now: number): Promise<CallStatus> {
      const call = await load(callId);
      const moves = call.reschedules ?? [];
      if (moves.some((m) => m.at.getTime() === now)) return call.status;
      const move = { from: call.next_attempt_at, to: new Date(at), by: 'candidate' as const, at: new Date(now) };
      const changed = await calls.change(call, {
        to: 'scheduled',
        events: [callEvents.rescheduled(moves.length + 1)],
        set: { next_attempt_at: move.to, ...(call.scheduled_for === null ? { scheduled_for: move.to } : {}) },
        push: { reschedules: move },
      });
      return changed?.status ?? call.status;
    },

    /** Its attempts spent, the call waits until `until` for the written answers: shown `scheduled`, with `form_until`. */
    async awaitWrittenAnswers(callId: string, until: number): Promise<CallStatus> {
      const call = await load(callId);
      const changed = await calls.change(call, { to: 'scheduled', set: { next_attempt_at: null, form_until: new Date(until) } });
      return changed?.status ?? call.status;
    },

    /**
     * The call completed by the candidate's written answers (kept as its form report before the workflow was
     * told): their values, checked against the extract variables as a provider's are, with `channel: "form"`.
     */
    async completeByForm(callId: string): Promise<CallStatus> {
      const [call, form] = await Promise.all([load(callId), stores.callReports.get(callId, FORM_REPORT_ATTEMPT)]);
      const { values, notes } = coerceExtracted(call.extract_variables, form ? JSON.parse(form.extracted_json) : {});
      const changed = await calls.change(call, {
        to: 'completed',
        events: [callEvents.ended('completed')],
        set: { extracted_variables: values, extraction_notes: notes, channel: 'form', failure_reason: null, next_attempt_at: null },
      });
      await changes.releaseHeldSlot(call);
      await stores.calls.freeCandidate(call);
      return changed?.status ?? 'completed';
    },
  };
}
