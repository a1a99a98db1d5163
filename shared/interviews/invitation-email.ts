/**
 * The interview invitation a candidate receives: subject, plain text and HTML from the same facts. Every
 * value is caller-supplied text, so the HTML part escapes all of it.
 */
export interface InvitationFacts {
  candidateName: string;
  jobTitle: string;
  companyName: string;
  interviewUrl: string;
  questionsCount: number;
  /** When the link stops working; the email says so when given. */
  expiresAt?: Date;
  /** The email's unsubscribe link, shown at its foot (and in its List-Unsubscribe header). */
  unsubscribeUrl: string;
  /** The first invitation (the default), the reminder at half the link's time, or a resend the ATS asked for. */
  kind?: InvitationKind;
}

export type InvitationKind = 'invitation' | 'reminder' | 'resend';

export interface ComposedEmail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** A day as the candidate reads it, in UTC so every reader sees the same date: "8 December 2026". */
export function dayOf(date: Date): string {
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** Each kind's subject and opening, as plain text (the HTML part escapes them). */
function wording(f: InvitationFacts): { subject: string; opening: string } {
  const role = `the ${f.jobTitle} role at ${f.companyName}`;
  switch (f.kind ?? 'invitation') {
    case 'reminder':
      return {
        subject: `Reminder: your interview for ${f.jobTitle} at ${f.companyName}`,
        opening: `A reminder that your online interview for ${role} is still waiting for you.`,
      };
    case 'resend':
      return {
        subject: `Your interview link for ${f.jobTitle} at ${f.companyName}`,
        opening: `Here again is your link to the online interview for ${role}.`,
      };
    default:
      return {
        subject: `Your interview for ${f.jobTitle} at ${f.companyName}`,
        opening: `Thank you for your interest in ${role}. We would like to invite you to an online interview.`,
      };
  }
}

/**
 * An email of a candidate's link, in both parts from the same facts: "Hi" and their first name, the email's
 * own paragraphs, then the end every such email has (the link, a button in HTML and `label: url` in text; that
 * it is personal; the hiring team; the unsubscribe link). The HTML part escapes every value.
 */
export function personalLinkEmail(f: {
  subject: string;
  candidateName: string;
  paragraphs: string[];
  label: string;
  button: string;
  url: string;
  companyName: string;
  unsubscribeUrl: string;
}): ComposedEmail {
  const firstName = f.candidateName.trim().split(/\s+/)[0] || f.candidateName;
  const text = [
    `Hi ${firstName},`,
    '',
    ...f.paragraphs,
    '',
    `${f.label}: ${f.url}`,
    '',
    'This link is personal to you; please do not share it.',
    '',
    `The ${f.companyName} hiring team`,
    '',
    `No more emails from ${f.companyName} about applications: ${f.unsubscribeUrl}`,
  ].join('\n');
  const e = escapeHtml;
  const html = [
    '<!doctype html>',
    '<html><body style="font-family:Arial,Helvetica,sans-serif;line-height:1.5;color:#1f2933">',
    `<p>Hi ${e(firstName)},</p>`,
    ...f.paragraphs.map((p) => `<p>${e(p)}</p>`),
    `<p><a href="${e(f.url)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#ffffff;text-decoration:none;border-radius:6px">${e(f.button)}</a></p>`,
    `<p style="font-size:13px;color:#52606d">Or open this address: ${e(f.url)}<br>This link is personal to you; please do not share it.</p>`,
    `<p>The ${e(f.companyName)} hiring team</p>`,
    `<p style="font-size:12px;color:#7b8794"><a href="${e(f.unsubscribeUrl)}" style="color:#7b8794">Unsubscribe</a>: no more emails from ${e(f.companyName)} about applications.</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: f.subject, text, html };
}

export function composeInvitation(f: InvitationFacts): ComposedEmail {
  const questions = `${f.questionsCount} question${f.questionsCount === 1 ? '' : 's'}`;
  const { subject, opening } = wording(f);
  const until = f.expiresAt ? ` The link is open until ${dayOf(f.expiresAt)}.` : '';
  return personalLinkEmail({
    ...f,
    subject,
    paragraphs: [
      opening,
      `It has ${questions}; you can take it whenever it suits you, from any device with a camera and microphone.${until}`,
    ],
    label: 'Start your interview',
    button: 'Start your interview',
    url: f.interviewUrl,
  });
}
