/**
 * What a call says before anything else (docs/contact-rules.md): that an automated AI assistant is calling, for
 * whom, and that the call is recorded. The FCC's 2024 ruling counts AI voices as artificial voices, and
 * several US states and the EU AI Act ask that a person know they are speaking with a machine.
 */

/** The workspace's `call_disclosure` when it has never set one; `{{company}}` is the call's company. */
export const DEFAULT_CALL_DISCLOSURE = 'Hello, this is an automated AI assistant calling on behalf of {{company}}. This call is recorded.';

/** The call's first words: the disclosure with its company, then the request's first_message. */
export function openingLine(disclosure: string | null, company: string, firstMessage: string): string {
  if (!disclosure) return firstMessage;
  return `${disclosure.replace(/\{\{\s*company\s*\}\}/g, company).trim()} ${firstMessage}`;
}

/** A call-back's first words: the same disclosure, then thanks for returning the call, then the first_message. */
export function returningCallLine(disclosure: string | null, company: string, firstMessage: string): string {
  return openingLine(disclosure, company, `Thank you for returning our call from ${company}. ${firstMessage}`);
}
