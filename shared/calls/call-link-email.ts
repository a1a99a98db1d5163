import { personalLinkEmail, type ComposedEmail } from '../interviews/invitation-email';

/** What the email of a call's candidate link says (docs/call-links.md): every value is caller-supplied text. */
export interface CallLinkEmailFacts {
  candidateName: string;
  jobTitle: string;
  companyName: string;
  /** When we plan to call, as the candidate reads it (their zone), or null when the call is due now. */
  plannedFor: string | null;
  linkUrl: string;
  unsubscribeUrl: string;
}

/**
 * The one email of a call's link, sent when the call is made: that we will call, when, and what the link lets
 * the candidate do instead. Plain text and HTML from the same facts; the HTML part escapes all of them.
 */
export function composeCallLinkEmail(f: CallLinkEmailFacts): ComposedEmail {
  const when = f.plannedFor ? `We plan to call you on ${f.plannedFor}.` : 'We will call you shortly.';
  return personalLinkEmail({
    ...f,
    subject: `${f.companyName} will call you about ${f.jobTitle}`,
    paragraphs: [
      `Thank you for your interest in the ${f.jobTitle} role at ${f.companyName}. ${when} The call is with an AI assistant, and it is recorded.`,
      'If that time does not suit you, you can have the call now, pick a time, answer in writing instead, or tell us you are not interested.',
    ],
    label: 'Your call',
    button: 'Choose how we talk',
    url: f.linkUrl,
  });
}
