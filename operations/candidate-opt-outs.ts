import type { InterviewDoc } from '../infra/documents/interviews';
import type { CallDoc } from '../infra/documents/calls';
import { keyedId } from '../infra/ids';
import { normaliseEmail } from '../infra/people';
import { SUPPRESSION_CHANNELS, type SuppressionChannel } from '../shared/suppressions/schema';
import type { OperationDeps } from './deps';
import type { SuppressionFiling } from './suppressions';

/**
 * The candidate's own ways into the suppression list (docs/contact-rules.md), filed through the one filing
 * (operations/suppressions.ts): an email's unsubscribe link (email, for the address) and the interview page's
 * "Don't contact me again" (every channel, for the candidate's email and phone). Each files one entry however
 * often it is used. The pages (web/suppressions/routes.tsx) confirm first and show where the candidate stands.
 */
export function candidateOptOuts({ stores, logger }: Pick<OperationDeps, 'stores' | 'logger'>, suppressions: SuppressionFiling) {
  return {
    /**
     * The interview, or the call (its link's email), an unsubscribe link's token was signed for; null when it is
     * none, or keeps no address (erased).
     */
    async ofUnsubscribeLink(token: string): Promise<Emailed | null> {
      const id = await stores.signedTokens.unsubscribeLinks.interviewOf(token);
      const emailed = !id ? null : id.startsWith('call_') ? await stores.calls.get(id) : await stores.interviews.get(id);
      return emailed?.candidate.email ? emailed : null;
    },

    /** Whether the list already refuses every one of `channels` to the interview's (or call's) candidate. */
    async refused(interview: Emailed, channels: readonly SuppressionChannel[]): Promise<boolean> {
      const workspace = await stores.workspaces.get(interview.workspace_id);
      const now = await stores.suppressions.channelsFor(workspace, { email: interview.candidate.email, phone: interview.candidate.phone });
      return channels.every((c) => now.has(c));
    },

    /** The unsubscribe link used: email refused to the address, one entry per address and workspace. */
    async unsubscribe(interview: Emailed): Promise<void> {
      const email = normaliseEmail(interview.candidate.email);
      await suppressions.file({
        id: await stores.suppressions.emailLinkEntryId(interview.workspace_id, email),
        workspaceId: interview.workspace_id,
        email,
        channels: ['email'],
        source: 'email_link',
        reason: 'Unsubscribe link in an email',
      });
      logger.info({ emailedFor: interview._id }, 'email address unsubscribed by its link');
    },

    /** The interview page's "Don't contact me again": every channel refused to the candidate's email and phone. */
    async optOut(interview: InterviewDoc): Promise<void> {
      await suppressions.file({
        id: keyedId('sup', interview.workspace_id, 'interview_page', interview._id),
        workspaceId: interview.workspace_id,
        email: interview.candidate.email,
        phone: interview.candidate.phone,
        channels: SUPPRESSION_CHANNELS,
        source: 'interview_page',
        reason: 'The candidate\'s "Don\'t contact me again" on the interview page',
      });
      logger.info({ interviewId: interview._id }, 'candidate opted out on the interview page');
    },

    /** The call link's "Stop contacting me": every channel refused to the candidate's phone and email; their waiting calls stop. */
    async optOutOfCall(call: CallDoc): Promise<void> {
      await suppressions.file({
        id: keyedId('sup', call.workspace_id, 'call_page', call._id),
        workspaceId: call.workspace_id,
        email: call.candidate.email,
        phone: call.candidate.phone,
        channels: SUPPRESSION_CHANNELS,
        source: 'call_page',
        reason: 'The candidate\'s "Stop contacting me" on their call\'s page',
      });
      logger.info({ callId: call._id }, 'candidate opted out on their call page');
    },
  };
}

export type CandidateOptOuts = ReturnType<typeof candidateOptOuts>;

/** What an email was about (an interview, or a call's link), as much as an unsubscribe link reads of it. */
export type Emailed = Pick<InterviewDoc | CallDoc, '_id' | 'workspace_id' | 'project_id' | 'candidate'>;
