/**
 * A workspace's numbers, as the operator gives them (admin workspace:update) and GET /workspace shows them: a
 * provider's phone number id, and an invitation sender written `Name <address>` or as the address alone.
 */

/** A provider's phone number id: its own characters, no spaces, at most 100. */
export const PHONE_NUMBER_ID = /^[A-Za-z0-9._:-]{1,100}$/;

const ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** `Name <address>` or `address`, as a sender; null when it is neither. */
export function parseEmailFrom(text: string): { email: string; name?: string } | null {
  const t = text.trim();
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(t);
  const email = (named ? named[2] : t).trim();
  const name = named?.[1].trim().replace(/^"(.*)"$/, '$1');
  if (!ADDRESS.test(email) || email.length > 254 || (name !== undefined && (name.length > 100 || /[\r\n<>]/.test(name)))) return null;
  return name ? { email, name } : { email };
}

/** A sender as it is written: `Name <address>`, or the address alone. */
export function formatEmailFrom(from: { email: string; name?: string }): string {
  return from.name ? `${from.name} <${from.email}>` : from.email;
}
