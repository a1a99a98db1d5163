import { interviewEvent, interviewStore } from '../stores/interviews';
import { expiresAtOf, type InterviewDoc } from '../infra/records/interviews';
import { remindsCandidates, type WorkspaceDoc } from '../infra/records/workspaces';
import { linkExpired, reminderAt } from '../shared/interviews/deadlines';
import type { InterviewStatus } from '../shared/interviews/schema';
import { linkEmail, loadInterview, OPTED_OUT_OF_EMAIL, optedOutOfEmail, sendInvitationEmail } from './interviews';
import type { InterviewEventType } from '../shared/webhooks/schema';
import { NotAnnouncedError } from '../stores/resource-store';
import type { ActivityDeps } from './deps';

/** Where a sent invitation stands, as its workflow needs it to decide what to wait for. Times are epoch ms. */
export interface InterviewStanding {
  status: InterviewStatus;
  expiresAt: number;
  /** When the one reminder is due; null when none is: sent, turned off for the workspace, or not needed. */
  remindAt: number | null;
  /** A resend the API accepted and no email has answered yet. */
  resendPending: boolean;
  /** A finished interview whose assessment is not stored yet. */
  toAssess: boolean;
  /** The answers with a recording, when there is a transcriber to read them. */
  toTranscribe: number[];
}

export type LinkEmailKind = 'reminder' | 'resend';

/** The invitation's email, and once sent, where the interview stands; null when that could not be read. */
export type InvitationDelivery = { delivery: 'sent'; standing: InterviewStanding | null } | { delivery: 'failed' };

/**
 * An invitation's follow-up, from its email on: the email itself, reading where the interview stands, the
 * reminder and resend emails, expiry. Each is idempotent (a retried or replayed activity leaves the same state), and every read and write is by `_id`.
 */
export function createInterviewFollowUpActivities({
  db,
  logger,
  clock,
  email,
  publicBaseUrl,
  emailFrom,
  transcriber,
  announce,
}: Pick<ActivityDeps, 'db' | 'logger' | 'clock' | 'email' | 'publicBaseUrl' | 'emailFrom' | 'transcriber' | 'announce'>) {
  const interviews = interviewStore({ db, announce, publicBaseUrl });
  const load = (interviewId: string) => loadInterview(db, interviewId);
  /**
   * Whether the interview's reminder is still to go out: not sent, the candidate not started, the workspace
   * willing. `workspace`: the interview's, when the caller read it already.
   */
  async function reminderDue(interview: InterviewDoc, workspace?: Readonly<WorkspaceDoc> | null): Promise<boolean> {
    if (interview.status !== 'invited' || interview.reminder) return false;
    return remindsCandidates(workspace === undefined ? await db.shared.workspace(interview.workspace_id) : workspace);
  }
  const resendPending = (i: InterviewDoc) => !!i.resend && !i.resend.sent_at && !i.resend.error;

  async function standing(interview: InterviewDoc, workspace?: Readonly<WorkspaceDoc> | null): Promise<InterviewStanding> {
    const expiresAt = expiresAtOf(interview);
    const toAssess = interview.status === 'completed' && interview.assessment?.status !== 'completed';
    return {
      status: interview.status,
      expiresAt: expiresAt.getTime(),
      remindAt: (await reminderDue(interview, workspace)) ? reminderAt(interview.created_at, expiresAt).getTime() : null,
      resendPending: resendPending(interview),
      toAssess,
      toTranscribe: toAssess && transcriber ? (interview.answers ?? []).filter((a) => a.recording).map((a) => a.index) : [],
    };
  }

  return {
    async interviewStanding(interviewId: string): Promise<InterviewStanding> {
      return standing(await load(interviewId));
    },

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
      const workspace = await db.shared.workspace(interview.workspace_id);
      let sent;
      try {
        sent = await sendInvitationEmail({ db, logger, clock, email, publicBaseUrl, emailFrom, announce }, interview, workspace);
      } catch (err) {
        if (!(err instanceof NotAnnouncedError)) throw err;
        logger.warn({ interviewId, error: (err.cause as Error)?.message }, 'invitation sent; its announcement is left to the workflow');
        return { delivery: 'sent', standing: null };
      }
      if (sent.delivery === 'failed') return { delivery: 'failed' };
      try {
        // Sent by an earlier execution, which may have stopped before announcing it.
        if (sent.earlier) await interviews.announceAgain(sent.interview, [interviewEvent('interview.invited', sent.interview)]);
        return { delivery: 'sent', standing: await standing(sent.interview, workspace) };
      } catch (err) {
        logger.warn({ interviewId, error: (err as Error).message }, 'invitation sent; its announcement is left to the workflow');
        return { delivery: 'sent', standing: null };
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
      // The ledger, read right before the send: a suppressed email gets no reminder and no resend.
      if (await optedOutOfEmail(db, interview)) {
        await recordLinkEmail(interview, kind, OPTED_OUT_OF_EMAIL);
        return 'skipped';
      }
      const key = kind === 'reminder' ? `${interviewId}/reminder` : `${interviewId}/resend/${interview.resend!.requested_at.getTime()}`;
      const result = await email.send({ idempotencyKey: key, ...(await linkEmail({ db, publicBaseUrl, emailFrom }, interview, kind)) });
      if (!result.sent) logger.warn({ interviewId, kind, provider: email.name, error: result.error }, 'interview link email refused');
      await recordLinkEmail(interview, kind, result.sent ? null : result.error);
      return result.sent ? 'sent' : 'failed';
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
      if (interview.status === 'expired' || !linkExpired(interview.status, expiresAtOf(interview), new Date(atMs))) {
        return interview.status;
      }
      await interviews.change(interview, { to: 'expired', events: [interviewEvent('interview.expired', interview)] });
      logger.info({ interviewId }, 'interview link expired');
      return 'expired';
    },

    /**
     * Announces an event of the interview that its store recorded and announced with the change that made it,
     * in case that announcement did not go out (the candidate's page, whose request does not wait for it, or a
     * step that stopped between its write and its announcement). Each happens once (an expiry once per
     * deadline, as a resend may open the link again), however often asked: one already made changes nothing.
     */
    async announceInterview(interviewId: string, type: InterviewEventType): Promise<void> {
      const interview = await load(interviewId);
      await interviews.announceAgain(interview, [interviewEvent(type, interview)]);
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
