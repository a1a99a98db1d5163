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

    /**
     * A page's own opt-out: the interview page's "Don't contact me again", or the call link's "Stop contacting
     * me". Every channel refused to the candidate's email and phone, one entry per page and interview or call;
     * their waiting calls stop.
     */
    async optOut(on: Emailed, page: 'interview_page' | 'call_page'): Promise<void> {
      await suppressions.file({
        id: keyedId('sup', on.workspace_id, page, on._id),
        workspaceId: on.workspace_id,
        email: on.candidate.email,
        phone: on.candidate.phone,
        channels: SUPPRESSION_CHANNELS,
        source: page,
        reason: OPT_OUT_REASONS[page],
      });
      logger.info({ optedOutOn: on._id, page }, 'candidate opted out on their page');
    },
  };
}

export type CandidateOptOuts = ReturnType<typeof candidateOptOuts>;

/** Why each page's opt-out was filed, as the suppression list shows it. */
const OPT_OUT_REASONS = {
  interview_page: 'The candidate\'s "Don\'t contact me again" on the interview page',
  call_page: 'The candidate\'s "Stop contacting me" on their call\'s page',
} as const;

/** What an email was about (an interview, or a call's link), as much as an unsubscribe link reads of it. */
export type Emailed = Pick<InterviewDoc | CallDoc, '_id' | 'workspace_id' | 'project_id' | 'candidate'>;
