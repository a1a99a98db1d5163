/** The offline parser's reading of an ad: its lines, each with the part of the ad it belongs to. */

/** What a line of the ad is about, from the heading it sits under (or its own label). */
export type Part = 'intro' | 'required' | 'preferred' | 'duties' | 'company' | 'other';

export interface Line {
  text: string;
  part: Part;
  /** For a heading line, the kind of part it opens. */
  heading: Part | null;
  /** The line's own "Label: value" prefix classified, when it has one (e.g. "Preferred: …"). */
  labelPart: Part | null;
}

const PREFERRED_HEADING =
  /nice[- ]to[- ]have|good[- ]to[- ]have|bonus|preferred|desirable|\bplus\b|\bassets?\b|great if|would be great|ideally|extra credit|not required/i;
const REQUIRED_HEADING =
  /requirement|qualification|must[- ]have|essential|\brequired\b|what you(?:'ll| will)? (?:need|bring|have)|you (?:have|bring|need|should have)|who you are|about you|what we(?:'re| are) looking for|what we ask|skills|your profile|we expect/i;
const DUTIES_HEADING =
  /responsibilit|what you(?:'ll| will) do|your tasks|the role|you will|duties|about the (?:job|role)|in this role|day to day/i;
const COMPANY_HEADING = /about us|about the company|who we are|benefits|perks|what we offer|we offer|our values|why join/i;

function classifyHeading(text: string): Part {
  if (PREFERRED_HEADING.test(text)) return 'preferred';
  if (REQUIRED_HEADING.test(text)) return 'required';
  if (DUTIES_HEADING.test(text)) return 'duties';
  if (COMPANY_HEADING.test(text)) return 'company';
  return 'other';
}

/** Markdown and list decoration off a line: headings, bold, bullets, emoji. */
function plain(line: string): string {
  return (
    line
      .replace(/^\s*#{1,6}\s*/, '')
      .replace(/\*\*|__/g, '')
      .replace(/^\s*(?:[-*•·–]|\d+[.)])\s+/, '')
      .replace(/[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}]\uFE0F?/gu, '')
      // One space between words also keeps every pattern below linear on hostile input.
      .replace(/\s+/g, ' ')
      .trim()
  );
}

function isHeading(raw: string, text: string): boolean {
  if (!text || text.length > 70) return false;
  if (/^\s*#{1,6}\s/.test(raw)) return true;
  // A short unpunctuated line that names a known part of an ad ("Nice to have", "About you").
  if (text.length <= 40 && !/[.,;!?]$/.test(text) && !/^\s*[-*•]/.test(raw) && classifyHeading(text) !== 'other') return true;
  if (/^\s*(\*\*|__).+(\*\*|__):?\s*$/.test(raw)) return true;
  if (/:\s*$/.test(text)) return true;
  const letters = text.replace(/[^A-Za-z]/g, '');
  return letters.length >= 4 && letters === letters.toUpperCase() && !/^\s*[-*•]/.test(raw);
}

/** Splits the ad into lines, each tagged with the part of the ad it belongs to. */
export function readLines(textIn: string): Line[] {
  const out: Line[] = [];
  let part: Part = 'intro';
  let sawHeading = false;
  for (const raw of textIn.replace(/\r\n?/g, '\n').split('\n')) {
    const text = plain(raw);
    if (!text) continue;
    // The first line is the title, not a heading, even when it is formatted as one.
    if (out.length > 0 || sawHeading) {
      if (isHeading(raw, text)) {
        const kind = classifyHeading(text);
        // A heading that says nothing about its content keeps the part we are in, except after the intro.
        part = kind === 'other' ? (part === 'intro' ? 'other' : part) : kind;
        sawHeading = true;
        out.push({ text, part: 'other', heading: kind, labelPart: null });
        continue;
      }
    }
    const label = /^([A-Za-z][A-Za-z '’/-]{1,40}):\s+\S/.exec(text);
    const labelKind = label ? classifyHeading(label[1]) : null;
    out.push({
      text,
      part,
      heading: null,
      labelPart: labelKind === 'required' || labelKind === 'preferred' || labelKind === 'duties' ? labelKind : null,
    });
  }
  return out;
}
