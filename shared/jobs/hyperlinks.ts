/**
 * Job titles and descriptions end up on a public job page and in candidate emails, where a link would be a
 * phishing vector; the spec forbids hyperlinks in them. What counts as a link: any `scheme://` URL (http,
 * https, ftp…), a `www.` address, a markdown link `[text](target)` and an HTML anchor `<a …>`. Bare words
 * with dots ("Node.js", "acme.com") are prose, not links.
 */
export function findHyperlink(text: string): string | null {
  if (hasSchemeUrl(text)) return 'URL';
  if (WWW_ADDRESS.test(text)) return 'www. address';
  if (hasMarkdownLink(text)) return 'markdown link';
  if (/<a[\s>]/i.test(text)) return 'HTML link';
  return null;
}

// Each check runs in time linear in the text, whatever it holds: a request's text is read before anything
// else, and a pattern such as /\b[a-z][a-z0-9+.-]*:\/\/\S/ backtracks quadratically over "a.a.a.a…"
// (20,000 characters took 270 ms). The scanners below find what those patterns found.

// Anchored on "www" after a boundary, with no nested repetition: it never backtracks past the next dot.
const WWW_ADDRESS = /(^|[^\p{L}\p{N}_.-])www\d{0,3}\.[\p{L}\p{N}-]+\.\p{L}/iu;
const SCHEME_CHAR = /[a-z0-9+.-]/i;
const LETTER = /[a-z]/i;
const WORD_CHAR = /\w/;

/** `scheme://x`: a letter at a word boundary, scheme characters, "://", then a non-space. */
function hasSchemeUrl(text: string): boolean {
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 1)) {
    if (at + 3 >= text.length || /\s/.test(text[at + 3])) continue;
    // Back over the scheme's characters; a ':' or '/' ends the run, so no character is read twice.
    for (let j = at - 1; j >= 0 && SCHEME_CHAR.test(text[j]); j--) {
      if (LETTER.test(text[j]) && (j === 0 || !WORD_CHAR.test(text[j - 1]))) return true;
    }
  }
  return false;
}

/** `[text](target)`: a bracket with no `]` or newline inside, then `(`, a target with no space or `)`, then `)`. */
function hasMarkdownLink(text: string): boolean {
  let open = false;
  let scannedTo = -1; // the targets are read at most once: a later "](" inside a scanned target ends where it did
  let stop = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[') open = true;
    else if (c === '\n') open = false;
    else if (c === ']') {
      if (open && text[i + 1] === '(') {
        if (i + 2 > scannedTo) {
          stop = i + 2;
          while (stop < text.length && text[stop] !== ')' && !/\s/.test(text[stop])) stop++;
          scannedTo = stop;
        }
        if (text[stop] === ')') return true;
      }
      open = false;
    }
  }
  return false;
}

/**
 * A person's name as the invite operation accepts it: letters (any script, with their accents), dots and
 * spaces, at least 3 characters of which at least one is a letter.
 */
export function isPersonName(name: string): boolean {
  return name.trim().length >= 3 && /^[\p{L}\p{M}. ]+$/u.test(name) && /\p{L}/u.test(name);
}
