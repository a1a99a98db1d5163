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
}

export interface ComposedEmail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

export function composeInvitation(f: InvitationFacts): ComposedEmail {
  const firstName = f.candidateName.trim().split(/\s+/)[0] || f.candidateName;
  const questions = `${f.questionsCount} question${f.questionsCount === 1 ? '' : 's'}`;
  const subject = `Your interview for ${f.jobTitle} at ${f.companyName}`;
  const text = [
    `Hi ${firstName},`,
    '',
    `Thank you for your interest in the ${f.jobTitle} role at ${f.companyName}. We would like to invite you to an online interview.`,
    `It has ${questions}; you can take it whenever it suits you, from any device with a camera and microphone.`,
    '',
    `Start your interview: ${f.interviewUrl}`,
    '',
    'This link is personal to you; please do not share it.',
    '',
    `The ${f.companyName} hiring team`,
  ].join('\n');
  const e = escapeHtml;
  const html = [
    '<!doctype html>',
    '<html><body style="font-family:Arial,Helvetica,sans-serif;line-height:1.5;color:#1f2933">',
    `<p>Hi ${e(firstName)},</p>`,
    `<p>Thank you for your interest in the <strong>${e(f.jobTitle)}</strong> role at <strong>${e(f.companyName)}</strong>. We would like to invite you to an online interview.</p>`,
    `<p>It has ${e(questions)}; you can take it whenever it suits you, from any device with a camera and microphone.</p>`,
    `<p><a href="${e(f.interviewUrl)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#ffffff;text-decoration:none;border-radius:6px">Start your interview</a></p>`,
    `<p style="font-size:13px;color:#52606d">Or open this address: ${e(f.interviewUrl)}<br>This link is personal to you; please do not share it.</p>`,
    `<p>The ${e(f.companyName)} hiring team</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
