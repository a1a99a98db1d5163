import { callWindows, zonesOfCall, type CallDoc } from '../infra/documents/calls';
import { companyOf } from '../infra/documents/projects';
import type { WorkspaceDoc } from '../infra/documents/workspaces';
import { candidateEmail, sendEmailOnce } from './candidate-emails';
import { callLinkUrl } from '../shared/public-urls';
import { composeCallLinkEmail } from '../shared/calls/call-link-email';
import type { EmailMessage } from '../providers/email/port';
import { coerceExtracted } from '../shared/calls/extracted-values';
import { FORM_REPORT_ATTEMPT, firstMomentInside, localTime } from '../shared/calls/candidate-link';
import type { CallStatus } from '../shared/calls/schema';
import { callEvents } from '../stores/calls';
import type { CallActivityDeps, CallChanges } from './call-changes';

/**
 * The candidate's link to their call (docs/call-links.md), as the call's workflow carries it out: the link's
 * one email, whether the windows let a call ring now (or when they first do), the next dial moved to the
 * candidate's time, the wait for the written answers, and the call completed by them. Each is idempotent
 * under the activity's retries.
 */
export function createCallCandidateChoiceActivities(deps: CallActivityDeps, changes: CallChanges) {
  const { stores, email, logger } = deps;
  const { calls, load } = changes;
  return {
    /**
     * The one email of the candidate's link, as the call is made (the workspace's `email_call_links`): not to
     * an address the suppression list refuses email, nor to an erased candidate; recorded on the call
     * (`link_email`). Sent at most once (sendEmailOnce), and a recorded send is never repeated.
     */
    async emailCallLink(callId: string): Promise<void> {
      const call = await load(callId);
      if (call.link_email || call.erased_at || !call.candidate_token || !call.candidate.email) return;
      const workspace = await stores.workspaces.get(call.workspace_id);
      const refused = await stores.suppressions.channelsFor(workspace, { email: call.candidate.email, phone: call.candidate.phone });
      if (refused.has('email')) {
        await calls.note(call._id, {
          link_email: { status: 'skipped', sent_at: null, error: 'Not sent: the candidate opted out of emails' },
        });
        return;
      }
      // At most once (sendEmailOnce): one whose send got no answer may have gone, and is recorded unknown.
      const result = await sendEmailOnce(deps, {
        idempotencyKey: callLinkEmailKey(callId),
        ...(await callLinkEmail(deps, call, workspace)),
      });
      if (result.sent !== true)
        logger.warn({ callId, provider: email.name, outcome: result.sent ? 'unknown' : 'refused' }, 'call link email not sent');
      await calls.note(call._id, {
        link_email:
          result.sent === true
            ? { status: 'sent', sent_at: deps.clock(), error: null }
            : { status: result.sent === 'unknown' ? 'unknown' : 'failed', sent_at: null, error: result.error },
      });
    },

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
      // Recorded by an earlier try, which may have stopped before announcing it: its repeat is found made.
      const made = moves.findIndex((m) => m.at.getTime() === now);
      if (made >= 0) return (await calls.change(call, { events: [callEvents.rescheduled(made + 1)] }))?.status ?? call.status;
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

/** The email log's key of a call's link email: one per call (an erasure forgets it with the call). */
export const callLinkEmailKey = (callId: string) => `${callId}/link`;

/** The link's email: from the workspace's own sender (or the service's, in the company's name), with its unsubscribe link. */
async function callLinkEmail(
  deps: Pick<CallActivityDeps, 'stores' | 'publicBaseUrl' | 'emailFrom' | 'clock'>,
  call: CallDoc,
  workspace: Readonly<WorkspaceDoc> | null,
): Promise<Omit<EmailMessage, 'idempotencyKey'>> {
  const project = await deps.stores.projects.get(call.project_id);
  const companyName = companyOf(project, workspace) ?? 'our company';
  const zone = zonesOfCall(call, workspace)[0] ?? 'UTC';
  const at = call.next_attempt_at ?? call.schedule_at;
  const compose = (unsubscribe: string) =>
    composeCallLinkEmail({
      candidateName: call.candidate.name,
      jobTitle: project?.job_title ?? project?.name ?? 'the role',
      companyName,
      plannedFor: at && at.getTime() > deps.clock().getTime() ? `${localTime(at, zone)} (${zone} time)` : null,
      linkUrl: callLinkUrl(deps.publicBaseUrl, call.candidate_token!),
      unsubscribeUrl: unsubscribe,
    });
  return candidateEmail(deps, call, workspace, companyName, compose, {
    tags: { call_id: call._id, project_id: call.project_id },
    kind: 'call_link',
  });
}
