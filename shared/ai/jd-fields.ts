import type { EmploymentType, SeniorityLevel, WorkType } from '../jobs/schema';
import type { Line } from './jd-lines';

/** The offline parser's single-valued fields: experience, seniority, work type, employment type, location. */

// ---------- experience ----------

const NUMBER_WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  twenty: 20,
};
const NUM = `(\\d{1,2}(?:\\.5)?|${Object.keys(NUMBER_WORDS).join('|')})`;
const YEARS = `(?:years?|yrs?)(?:['’]|\\b)`;
const RANGE = new RegExp(`\\b${NUM}\\s*\\+?\\s*(?:-|–|—|to)\\s*${NUM}\\s*\\+?\\s*${YEARS}`, 'i');
const AT_LEAST = new RegExp(`\\b${NUM}\\s*(?:\\+|plus\\b)?\\s*${YEARS}`, 'i');
const NO_EXPERIENCE = /\bno (?:prior |previous )?experience (?:is )?(?:needed|required|necessary)\b/i;
const NOT_EXPERIENCE = /\b(?:old|older|of age|ago|in business|founded|history|warranty)\b/i;

const toNumber = (s: string) => NUMBER_WORDS[s.toLowerCase()] ?? Number(s);

function experienceIn(text: string): { min: number; max: number | null } | null {
  if (NO_EXPERIENCE.test(text)) return { min: 0, max: null };
  const range = RANGE.exec(text);
  if (range) {
    const [min, max] = [toNumber(range[1]), toNumber(range[2])];
    if (max > min && max <= 40) return { min, max };
  }
  const single = AT_LEAST.exec(text);
  if (single) {
    const min = toNumber(single[1]);
    if (min <= 40) return { min, max: null };
  }
  return null;
}

/** The first stated experience in the requirements; elsewhere only where the sentence is about experience. */
export function extractExperience(lines: Line[]): { min: number | null; max: number | null } {
  const candidates = (filter: (l: Line) => boolean) =>
    lines
      .filter(filter)
      .filter((l) => !NOT_EXPERIENCE.test(l.text))
      .map((l) => experienceIn(l.text))
      .find((e) => e !== null);
  const asked = (l: Line) => l.part === 'required' || l.labelPart === 'required';
  const found = candidates(asked) ?? candidates((l) => l.part !== 'company' && /experience|experienced/i.test(l.text));
  return found ? { min: found.min, max: found.max } : { min: null, max: null };
}

// ---------- seniority, work type, employment type ----------

const TITLE_LEVELS: Array<[SeniorityLevel, RegExp]> = [
  ['Principal', /\bprincipal\b/i],
  [
    'Staff',
    /\bstaff\s+(?:software|platform|data|machine|ml|backend|frontend|full[- ]stack|site|security|product|ux|engineer|designer|scientist|architect|developer)/i,
  ],
  ['Lead', /\b(?:team |tech |technical )?lead\b/i],
  ['Senior', /\b(?:senior|sr\.?)(?=\s|$|-)/i],
  ['Mid', /\b(?:mid[- ]?level|mid[- ]weight|intermediate)\b/i],
  ['Entry', /\b(?:intern|internship|graduate|entry[- ]level|junior|jr\.?|trainee|apprentice(?:ship)?)(?=\s|$|\W)/i],
];
const BODY_LEVELS: Array<[SeniorityLevel, RegExp]> = [
  ['Senior', /\bsenior[- ]level\b/i],
  ['Mid', /\b(?:mid[- ]level|intermediate[- ]level)\b/i],
  ['Entry', /\b(?:entry[- ]level|junior (?:role|position)|graduate (?:role|position|scheme|programme|program))\b/i],
];

export function extractSeniority(lines: Line[]): SeniorityLevel | null {
  const title = lines[0]?.text ?? '';
  for (const [level, re] of TITLE_LEVELS) if (re.test(title)) return level;
  const body = lines
    .slice(1)
    .map((l) => l.text)
    .join('\n');
  for (const [level, re] of BODY_LEVELS) if (re.test(body)) return level;
  return null;
}

const HYBRID = /\bhybrid\b/i;
const REMOTE =
  /\b(?:(?:fully |100% )?remote(?:ly)?(?! (?:monitoring|patient|sensing|control|support tools))|work(?:ing)? from home|wfh)\b/i;
const NOT_REMOTE = /\b(?:not|no|isn['’]t) (?:a )?remote\b/i;
const ON_SITE = /\b(?:on[- ]?site|in[- ]office|in the office|in[- ]person|office[- ]based)\b/i;

export function extractWorkType(text: string): WorkType | null {
  if (HYBRID.test(text)) return 'Hybrid';
  if (REMOTE.test(text) && !NOT_REMOTE.test(text)) return 'Remote';
  if (ON_SITE.test(text) || NOT_REMOTE.test(text)) return 'On Site';
  return null;
}

const EMPLOYMENT: Array<[EmploymentType, RegExp]> = [
  ['Freelance', /\bfreelanc(?:e|er|ers|ing)\b/i],
  ['Part Time', /\bpart[- ]?time\b/i],
  ['Contract', /\b(?:contract(?:or)?|fixed[- ]term|temporary|temp role)\b/i],
  ['Full Time', /\bfull[- ]?time\b/i],
];
const EMPLOYMENT_LABEL = /^(?:employment(?: type)?|job type|contract(?: type)?|type|hours|duration|schedule)\s*:\s*(.+)$/i;

function employmentIn(text: string): EmploymentType | null {
  return EMPLOYMENT.find(([, re]) => re.test(text))?.[0] ?? null;
}

/** A labelled line ("Job type: Part-time") decides; otherwise the most specific type the ad (`relevant`) mentions. */
export function extractEmployment(lines: Line[], relevant: string): EmploymentType | null {
  for (const line of lines) {
    const label = EMPLOYMENT_LABEL.exec(line.text);
    const stated = label && employmentIn(label[1]);
    if (stated) return stated;
  }
  return employmentIn(relevant);
}

// ---------- location ----------

const LOCATION_LABEL = /^(?:location|job location|based in|where|depot|office|site|city|workplace)\s*:\s*(.+)$/i;
const SEGMENT_SPLIT = /\s+[|·•–—-]\s+|\s*[|·•]\s*/;
const JOB_WORDS =
  /\b(?:engineer|developer|manager|designer|nurse|driver|assistant|associate|specialist|analyst|scientist|accountant|teacher|chef|barista|electrician|pharmacist|writer|translator|representative|intern|lead|director|officer|consultant|technician|generalist|administrator|coordinator|architect|operator|cashier|clerk|agent|advisor|executive)s?\b/i;
const WORK_WORDS =
  /\b(?:remote|hybrid|on[- ]?site|in[- ]office|in[- ]person|full[- ]?time|part[- ]?time|contract|freelance|permanent|temporary|shift|days?|hours?|week|month|pay|salary)\b/i;
const ORGANISATION =
  /\b(?:hospital|school|university|college|clinic|restaurant|pharmacy|inc\.?|ltd\.?|llc|gmbh|co\.|company|services|group|café|cafe|studio)\s*$/i;
const PLACE =
  /^[A-Z][\p{L}.'’-]*(?:\s+(?:[A-Z][\p{L}.'’-]*|city centre|city center|area|de|del|am|upon|on|of)){0,4}(?:,\s*[A-Z][\p{L}.'’-]*(?:\s+[A-Z][\p{L}.'’-]*){0,3}){0,2}$/u;
/** Regions a one-word location may name without a "City, Region" shape; anything else needs a label or a comma. */
const REGIONS =
  /^(?:US|USA|UK|EU|EMEA|APAC|LATAM|Europe|North America|South America|Asia|Africa|United States|United Kingdom|Canada|Mexico|Brazil|Germany|France|Spain|Portugal|Italy|Netherlands|Belgium|Ireland|Poland|Sweden|Norway|Denmark|Finland|Switzerland|Austria|India|Australia|New Zealand|Singapore|Japan|Israel|South Africa|Nigeria|Kenya|Argentina|Colombia|Chile)$/;
// Read on the few characters before a ". ", not on the text up to it: "St. St. St. …" would read it all each time.
const ABBREVIATION = /(?:^|\W)(?:St|Mt|Ft|Dr)\.$/;

/** The text up to the end of its first sentence, not fooled by "St. Anne's". */
function firstSentence(text: string): string {
  let end = text.indexOf('. ');
  while (end !== -1 && ABBREVIATION.test(text.slice(Math.max(0, end - 3), end + 1))) end = text.indexOf('. ', end + 1);
  return end === -1 ? text : text.slice(0, end);
}

/**
 * The text without its parenthesised asides and the space before each, as /\s*\([^)]*\)/g removes them, in
 * one pass: that pattern retries every "(" of an unclosed "((((…" to the text's end.
 */
function withoutParenthesised(text: string): string {
  const kept: string[] = [];
  let from = 0;
  for (let open = text.indexOf('('); open !== -1; open = text.indexOf('(', from)) {
    const close = text.indexOf(')', open);
    if (close === -1) break; // no ")" after this "(" closes any later one either
    let cut = open;
    while (cut > from && /\s/.test(text[cut - 1])) cut--;
    kept.push(text.slice(from, cut));
    from = close + 1;
  }
  kept.push(text.slice(from));
  return kept.join('');
}

/**
 * A place as written, with what is not part of it (work arrangement, parentheses, organisation) taken off.
 * Unlabelled text must look like "City, Region" or name a known region, so titles such as "Operations
 * Manager – Logistics" do not read as places.
 */
function asPlace(raw: string, labelled: boolean): string | null {
  let text = withoutParenthesised(firstSentence(raw.trim())).replace(/[.;]$/, '').trim();
  // "Remote (UK)", "Remote within Canada", "Remote – Europe time zones": the region after the arrangement.
  const remote = /^(?:fully |100% )?remote\b\s*(?:\(([^)]+)\)|(?:within|in|from|across)\s+(?:the\s+)?(.+)|[-–—:,]\s*(.+))/i.exec(
    raw.trim(),
  );
  if (remote) text = (remote[1] ?? remote[2] ?? remote[3] ?? '').replace(/\s*\b(?:time ?zones?|only|based)\b.*$/i, '').trim();
  const parts = text.split(/,\s*/).filter((p) => p && !ORGANISATION.test(p));
  text = parts.join(', ').replace(/^the\s+/i, '');
  if (!text || JOB_WORDS.test(text) || WORK_WORDS.test(text) || !PLACE.test(text)) return null;
  return labelled || withoutParenthesised(raw).includes(',') || REGIONS.test(text) ? text : null;
}

function placeIn(text: string, labelled: boolean): string | null {
  for (const candidate of [text, ...text.split(SEGMENT_SPLIT)]) {
    const place = asPlace(candidate, labelled);
    if (place) return place;
  }
  return null;
}

export function extractLocation(lines: Line[]): string | null {
  for (const line of lines) {
    const label = LOCATION_LABEL.exec(line.text);
    const place = label && placeIn(label[1], true);
    if (place) return place;
  }
  // The header lines of an ad ("Chicago, IL | On-site | Full-time", "Remote (US) · Full Time").
  for (const line of lines.slice(0, 5)) {
    // A bold header line ("**Hybrid — Warsaw, Poland**") counts; a section heading does not.
    if ((line.heading && line.heading !== 'other') || (line.part !== 'intro' && line.part !== 'other')) continue;
    const place = placeIn(line.text, false);
    if (place) return place;
  }
  const based = /\bbased in (?:the )?([A-Z][\p{L}.'’ -]+(?:,\s*[A-Z][\p{L}.'’ -]+)?)/u.exec(lines.map((l) => l.text).join('\n'));
  return based ? asPlace(based[1], false) : null;
}
