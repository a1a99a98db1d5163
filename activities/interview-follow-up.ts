import { interviewEvent } from '../stores/interviews';
import type { InterviewDoc } from '../infra/documents/interviews';
import { expiresAtOf } from '../infra/documents/interviews';
import { linkExpired } from '../shared/interviews/deadlines';
import type { InterviewStatus } from '../shared/interviews/schema';
import { EMAIL_SUPPRESSED, emailSuppressed, linkEmail, loadInterview, sendInvitationEmail } from './interviews';
import { sendEmailOnce } from './candidate-emails';
import { createInterviewStandingActivities, interviewStanding, resendPending, type InterviewStanding } from './interview-standing';
import { NotAnnouncedError } from '../stores/resource-store';
import type { ActivityDeps } from './deps';
import { maskedRefusal } from '../shared/address-masking';

export type { InterviewStanding } from './interview-standing';

export type LinkEmailKind = 'reminder' | 'resend';

/**
 * The invitation's email, and once sent, the status its write made (`invited`), and where the interview stands;
 * null when that could not be read (or the send's event not announced).
 */
export type InvitationDelivery =
  { delivery: 'sent'; status?: InterviewStatus; standing: InterviewStanding | null } | { delivery: 'failed' };

/**
 * An invitation's follow-up, from its email on: the email itself, reading where the interview stands
 * (interview-standing.ts), the reminder and resend emails, expiry. Each is idempotent (a retried or replayed
 * activity leaves the same state), and every read and write is by `_id`.
 */
export function createInterviewFollowUpActivities(
  deps: Pick<ActivityDeps, 'stores' | 'logger' | 'clock' | 'email' | 'publicBaseUrl' | 'emailFrom' | 'transcriber'>,
) {
  const { stores, logger, clock, email } = deps;
  const { interviews } = stores;
  const load = (interviewId: string) => loadInterview(stores, interviewId);
  const { reminderDue, standing } = interviewStanding(deps);
  return {
    ...createInterviewStandingActivities(deps),

    /**
     * Emails the invitation once (sendInvitationEmail, its store announcing `interview.invited` from the
     * send's write) and reads where the interview stands (as interviewStanding does): one local activity
     * instead of three, from the document the send's write returned instead of a read. Where it stands is null
     * when the announcement or the reading failed: the workflow then takes those two steps on their own,
     * retried as bookkeeping is, so that only the email itself can fail an invitation.
     */
    async deliverInvitation(interviewId: string): Promise<InvitationDelivery> {
      const interview = await load(interviewId);
      // Read once for the email (the company's name) and for the reminder's setting.
      const workspace = await stores.workspaces.get(interview.workspace_id);
      let sent;
      try {
        sent = await sendInvitationEmail(deps, interview, workspace);
      } catch (err) {
        if (!(err instanceof NotAnnouncedError)) throw err;
        logger.warn({ interviewId, error: (err.cause as Error)?.message }, 'invitation sent; its announcement is left to the workflow');
        return { delivery: 'sent', status: (err.item as InterviewDoc).status, standing: null };
      }
      if (sent.delivery === 'failed') return { delivery: 'failed' };
      // The status the send's write made; one made by an earlier execution was `invited` too, whatever came since.
      const status: InterviewStatus = sent.earlier ? 'invited' : sent.interview.status;
      try {
        // Sent by an earlier execution, which may have stopped before announcing it: its repeat is found made.
        if (sent.earlier) await interviews.change(sent.interview, { events: [interviewEvent('interview.invited', sent.interview)] });
        return { delivery: 'sent', status, standing: await standing(sent.interview, workspace) };
      } catch (err) {
        logger.warn({ interviewId, error: (err as Error).message }, 'invitation sent; its announcement is left to the workflow');
        return { delivery: 'sent', status, standing: null };
      }
    },

    /**
     * Emails the link again, as the reminder or as the resend the API accepted, once each: the key names the
     * email meant, so a retried activity or a replayed workflow never sends it twice. `skipped` when it is no
     * longer due (the candidate started, or the email went out already).
     */
    async sendInterviewLink(interviewId: string, kind: LinkEmailKind): Promise<'sent' | 'skipped' | 'failed'> {
      const interview = await load(interviewId);
      const due = kind === 'reminder' ? await reminderDue(interview) : resendPending(interview);
      if (!due) return 'skipped';
      // The suppression list, read right before the send: a suppressed email gets no reminder and no resend.
      if (await emailSuppressed(stores, interview)) {
        await recordLinkEmail(interview, kind, EMAIL_SUPPRESSED);
        return 'skipped';
      }
      const key = kind === 'reminder' ? `${interviewId}/reminder` : `${interviewId}/resend/${interview.resend!.requested_at.getTime()}`;
      // At most once (sendEmailOnce): one whose send got no answer may have gone, and is recorded with why.
      const result = await sendEmailOnce(deps, { idempotencyKey: key, ...(await linkEmail(deps, interview, kind)) });
      if (result.sent !== true)
        logger.warn({ interviewId, kind, provider: email.name, error: maskedRefusal(result.error) }, 'interview link email not sent');
      await recordLinkEmail(interview, kind, result.sent === true ? null : result.error);
      return result.sent === true ? 'sent' : 'failed';
    },

    /** Records that a reminder or resend could not be sent after every retry, so it is not tried again. */
    async failInterviewLink(interviewId: string, kind: LinkEmailKind, error: string): Promise<void> {
      const interview = await load(interviewId);
      if (kind === 'resend' ? resendPending(interview) : !interview.reminder) await recordLinkEmail(interview, kind, error);
    },

    /**
     * Invited or started → expired, if the link has run out by `atMs` (the workflow's time, so a worker whose
     * clock lags never leaves the workflow waking to an expiry that does not happen); the status afterwards.
     */
    async expireInterview(interviewId: string, atMs: number): Promise<InterviewStatus> {
      const interview = await load(interviewId);
      const expired = interview.status === 'expired';
      if (!expired && !linkExpired(interview.status, expiresAtOf(interview), new Date(atMs))) return interview.status;
      // Expired by an earlier execution, which may have stopped before announcing it: its repeat is found made.
      const changed = await interviews.change(interview, { to: 'expired', events: [interviewEvent('interview.expired', interview)] });
      if (!expired) logger.info({ interviewId }, 'interview link expired');
      return changed?.status ?? 'expired';
    },
  };

  async function recordLinkEmail(interview: InterviewDoc, kind: LinkEmailKind, error: string | null): Promise<void> {
    const now = clock();
    const $set =
      kind === 'reminder'
        ? { reminder: { at: now, error } }
        : { resend: { requested_at: interview.resend!.requested_at, sent_at: error ? null : now, error } };
    await interviews.change(interview, { set: $set });
  }
}

export type InterviewFollowUpActivities = ReturnType<typeof createInterviewFollowUpActivities>;
