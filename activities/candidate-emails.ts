import { ownEmailFrom, type WorkspaceDoc } from '../infra/documents/workspaces';
import { unsubscribeUrl } from '../shared/public-urls';
import type { ComposedEmail } from '../shared/interviews/invitation-email';
import type { EmailMessage, EmailResult } from '../providers/email/port';
import { outcomeUnknown } from '../shared/errors';
import { SEND_UNANSWERED } from '../shared/contact/reasons';
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
    // The provider's events of the email (SendGrid's custom_args) name what it is about and which email it is.
    tags: { ...tagged.tags, kind: tagged.kind },
    kind: tagged.kind,
  };
}

/** An email's outcome: the provider's answer, or `unknown` when its send got no answer and it may have gone. */
export type EmailOutcome = EmailResult | { sent: 'unknown'; error: string };

/**
 * Sends an email to a person at most once (docs/reliability.md, "Once to a person"): the send is claimed by
 * its idempotency key before it goes (stores/sends.ts). An execution that finds it claimed by another (a
 * worker that died mid-send) does not send it, nor does one whose send got no answer: both are `unknown`. A
 * send the provider surely did not take (it answered with an error, or was never reached) is given back and
 * thrown, so a retry sends it.
 */
export async function sendEmailOnce(
  { stores, email, clock }: Pick<ActivityDeps, 'stores' | 'email' | 'clock'>,
  message: EmailMessage,
): Promise<EmailOutcome> {
  // A provider that sends once per key does what the claim is for.
  if (email.deduplicates) return email.send(message);
  const send = await stores.sends.take({ channel: 'email', idempotencyKey: message.idempotencyKey }, clock());
  if (!send) return { sent: 'unknown', error: SEND_UNANSWERED };
  try {
    return await email.send(message);
  } catch (err) {
    if (outcomeUnknown(err)) return { sent: 'unknown', error: SEND_UNANSWERED };
    await stores.sends.giveBack(send);
    throw err;
  }
}
