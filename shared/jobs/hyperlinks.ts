/**
 * Job titles and descriptions end up on a public job page and in candidate emails, where a link would be a
 * phishing vector; the spec forbids hyperlinks in them. What counts as a link: any `scheme://` URL (http,
 * https, ftp…), a `www.` address, a markdown link `[text](target)` and an HTML anchor `<a …>`. Bare words
 * with dots ("Node.js", "acme.com") are prose, not links.
 */
const LINK_PATTERNS: Array<{ kind: string; pattern: RegExp }> = [
  { kind: 'URL', pattern: /\b[a-z][a-z0-9+.-]*:\/\/\S/i },
  { kind: 'www. address', pattern: /(^|[^\p{L}\p{N}_.-])www\d{0,3}\.[\p{L}\p{N}-]+\.\p{L}/iu },
  { kind: 'markdown link', pattern: /\[[^\]\n]*\]\([^)\s]*\)/ },
  { kind: 'HTML link', pattern: /<a[\s>]/i },
];

/** The kind of the first link found in `text`, or null when it has none. */
export function findHyperlink(text: string): string | null {
  for (const { kind, pattern } of LINK_PATTERNS) if (pattern.test(text)) return kind;
  return null;
}

/**
 * A person's name as the invite operation accepts it: letters (any script, with their accents), dots and
 * spaces, at least 3 characters of which at least one is a letter.
 */
export function isPersonName(name: string): boolean {
  return name.trim().length >= 3 && /^[\p{L}\p{M}. ]+$/u.test(name) && /\p{L}/u.test(name);
}
