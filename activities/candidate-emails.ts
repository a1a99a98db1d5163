import { ownEmailFrom, type WorkspaceDoc } from '../infra/documents/workspaces';
import { unsubscribeUrl } from '../shared/public-urls';
import type { ComposedEmail } from '../shared/interviews/invitation-email';
import type { EmailMessage } from '../providers/email/port';
import type { ActivityDeps } from './deps';

/**
 * An email to a candidate about an interview or a call: from the workspace's own sender, or the service's in
 * the hiring company's name, with the unsubscribe link its body shows (composed with it) and its headers
 * carry (RFC 8058 one-click), signed for what the email is about.
 */
export async function candidateEmail(
  { stores, publicBaseUrl, emailFrom }: Pick<ActivityDeps, 'stores' | 'publicBaseUrl' | 'emailFrom'>,
  about: { _id: string; project_id: string; candidate: { name: string; email: string } },
  workspace: Readonly<WorkspaceDoc> | null,
  companyName: string,
  compose: (unsubscribeUrl: string) => ComposedEmail,
  tagged: { tags: Record<string, string>; kind: string },
): Promise<Omit<EmailMessage, 'idempotencyKey'>> {
  const unsubscribe = unsubscribeUrl(publicBaseUrl, await stores.signedTokens.unsubscribeLinks.tokenFor(about._id));
  return {
    from: ownEmailFrom(workspace) ?? { email: emailFrom.email, name: emailFrom.name ?? companyName },
    to: { email: about.candidate.email, name: about.candidate.name },
    ...compose(unsubscribe),
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    ...tagged,
  };
}
