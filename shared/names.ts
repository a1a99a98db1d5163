/**
 * Candidate names arrive as typed by recruiters ("ADA lovelace", "jean-luc o'neil"); the spec wants Title Case.
 * Each word starts upper case and the rest is lower case, including after hyphens and apostrophes.
 */
export function titleCase(name: string): string {
  return name
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .replace(/(^|[\s\-'’.])(\p{L})/gu, (_m, sep: string, letter: string) => sep + letter.toUpperCase());
}

/** First word is the first name; the rest is the last name (empty for a single word). */
export function splitName(fullName: string): { first: string; last: string } {
  const [first = '', ...rest] = fullName.trim().split(/\s+/);
  return { first, last: rest.join(' ') };
}
