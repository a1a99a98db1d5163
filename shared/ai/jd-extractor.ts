import type { JdExtraction, JobRequirements } from './schema';
import type { EmploymentType, SeniorityLevel, WorkType } from '../jobs/schema';
import { SKILLS } from './skills-vocabulary';

/**
 * The offline job-description parser: deterministic rules over the text's structure and wording, used when
 * no language model is configured. It reads only what the text states: a field it finds no evidence for is
 * null (an empty list for skills), never a guess. Its accuracy on the fixture corpus is reported in README.md.
 */

/** What a line of the ad is about, from the heading it sits under (or its own label). */
type Part = 'intro' | 'required' | 'preferred' | 'duties' | 'company' | 'other';

interface Line {
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
function readLines(textIn: string): Line[] {
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

// ---------- skills ----------

interface CompiledSkill {
  name: string;
  contextual: boolean;
  pattern: RegExp;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const COMPILED: CompiledSkill[] = SKILLS.map((entry) => {
  const aliases = [...new Set([entry.name, ...(entry.aliases ?? [])])].sort((a, b) => b.length - a.length);
  // A skill is a whole token: not inside a longer word, and not glued to +, #, & or a dot-suffix (Node.js, C++, R&D).
  const body = aliases.map(escape).join('|');
  return {
    name: entry.name,
    contextual: Boolean(entry.contextual),
    pattern: new RegExp(`(?<![\\w+#&/.])(?:${body})(?![\\w+#&]|\\.\\w)`, entry.exact ? 'g' : 'gi'),
  };
});

/** Words that mark a clause as a wish rather than a requirement. */
const PREFERRED_CLAUSE =
  /\b(?:a plus|is a plus|plus\b|preferred|preferably|bonus|nice[- ]to[- ]have|desirable|an advantage|advantageous|ideally|is an asset|would be great)/i;

/** Skills in a piece of text, longest match first, so "AWS SageMaker" is one skill and "Tailwind CSS" is not CSS. */
function skillsIn(text: string, allowContextual: boolean): string[] {
  const hits: Array<{ start: number; end: number; name: string }> = [];
  for (const skill of COMPILED) {
    if (skill.contextual && !allowContextual) continue;
    for (const m of text.matchAll(skill.pattern)) hits.push({ start: m.index!, end: m.index! + m[0].length, name: skill.name });
  }
  hits.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken: Array<{ start: number; end: number; name: string }> = [];
  for (const hit of hits) if (!taken.some((t) => hit.start < t.end && t.start < hit.end)) taken.push(hit);
  return taken.sort((a, b) => a.start - b.start).map((t) => t.name);
}

function clauses(text: string): string[] {
  // Commas split clauses only outside parentheses, so "Python (pandas, scikit-learn)" stays one clause.
  return text.split(/;|,(?![^(]*\))|\.\s+/).filter((c) => c.trim());
}

function extractSkills(lines: Line[]): { required: string[]; preferred: string[] } {
  const required: string[] = [];
  const preferred: string[] = [];
  for (const line of lines) {
    const part = line.labelPart ?? line.part;
    if (part === 'company') continue;
    const wishes = part === 'preferred';
    const asked = part === 'required' || part === 'preferred';
    for (const clause of clauses(line.text)) {
      const wished = PREFERRED_CLAUSE.test(clause);
      const target = wishes || wished ? preferred : required;
      for (const skill of skillsIn(clause, asked || wished)) if (!target.includes(skill)) target.push(skill);
    }
  }
  // A skill that is both asked for and wished for is required.
  return { required, preferred: preferred.filter((s) => !required.includes(s)) };
}

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
function extractExperience(lines: Line[]): { min: number | null; max: number | null } {
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

function extractSeniority(lines: Line[]): SeniorityLevel | null {
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

function extractWorkType(text: string): WorkType | null {
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
function extractEmployment(lines: Line[], relevant: string): EmploymentType | null {
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
const ABBREVIATION = /\b(?:St|Mt|Ft|Dr)\.$/;

/** The text up to the end of its first sentence, not fooled by "St. Anne's". */
function firstSentence(text: string): string {
  let end = text.indexOf('. ');
  while (end !== -1 && ABBREVIATION.test(text.slice(0, end + 1))) end = text.indexOf('. ', end + 1);
  return end === -1 ? text : text.slice(0, end);
}

/**
 * A place as written, with what is not part of it (work arrangement, parentheses, organisation) taken off.
 * Unlabelled text must look like "City, Region" or name a known region, so titles such as "Operations
 * Manager – Logistics" do not read as places.
 */
function asPlace(raw: string, labelled: boolean): string | null {
  let text = firstSentence(raw.trim())
    .replace(/\s*\([^)]*\)/g, '')
    .replace(/[.;]$/, '')
    .trim();
  // "Remote (UK)", "Remote within Canada", "Remote – Europe time zones": the region after the arrangement.
  const remote = /^(?:fully |100% )?remote\b\s*(?:\(([^)]+)\)|(?:within|in|from|across)\s+(?:the\s+)?(.+)|[-–—:,]\s*(.+))/i.exec(
    raw.trim(),
  );
  if (remote) text = (remote[1] ?? remote[2] ?? remote[3] ?? '').replace(/\s*\b(?:time ?zones?|only|based)\b.*$/i, '').trim();
  const parts = text.split(/,\s*/).filter((p) => p && !ORGANISATION.test(p));
  text = parts.join(', ').replace(/^the\s+/i, '');
  if (!text || JOB_WORDS.test(text) || WORK_WORDS.test(text) || !PLACE.test(text)) return null;
  return labelled || raw.replace(/\([^)]*\)/g, '').includes(',') || REGIONS.test(text) ? text : null;
}

function placeIn(text: string, labelled: boolean): string | null {
  for (const candidate of [text, ...text.split(SEGMENT_SPLIT)]) {
    const place = asPlace(candidate, labelled);
    if (place) return place;
  }
  return null;
}

function extractLocation(lines: Line[]): string | null {
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

// ---------- is it a job description at all ----------

const HIRING_PHRASES =
  /\b(?:we(?:'re| are) (?:looking for|hiring|seeking|recruiting)|is (?:hiring|seeking|recruiting)|join (?:our|the) (?:team|crew)|apply|applicants?|candidates?|the role|this role|this position|the successful candidate|salary|per hour|\/hour|compensation|benefits|you will|you'll)\b/gi;
/** Signs of a CV or a letter about a job rather than the job itself; two of them outweigh everything else. */
const CV_SIGNS = [
  /^\s*dear\b[^\n]*,?\s*$/im,
  /^\s*(?:kind regards|best regards|yours sincerely|yours faithfully|sincerely)\b/im,
  /^\s*(?:education|work history|employment history|curriculum vitae|résumé|resume|objective|references)\s*$/im,
  /\b(?:19|20)\d{2}\s*[–-]\s*(?:present|current|now)\b/i,
  /(?:\bI(?:'ve|'m)?\b|\bmy\b)[^\n]*(?:\n[^\n]*)?(?:\bI(?:'ve|'m)?\b|\bmy\b)/,
];
const MIN_WORDS = 25;

function jobScore(text: string, lines: Line[], found: { experience: boolean; work: boolean; employment: boolean; skills: number }): number {
  const headingKinds = new Set(lines.filter((l, i) => i > 0 && l.part !== 'intro').map((l) => l.part));
  const structure = ['required', 'preferred', 'duties'].filter((k) => headingKinds.has(k as Part)).length * 2;
  const phrases = new Set([...text.matchAll(HIRING_PHRASES)].map((m) => m[0].toLowerCase())).size;
  const cv = CV_SIGNS.filter((re) => re.test(text)).length >= 2 ? 6 : 0;
  return (
    structure +
    Math.min(phrases, 4) +
    (found.experience ? 2 : 0) +
    (found.work ? 1 : 0) +
    (found.employment ? 1 : 0) +
    (found.skills >= 3 ? 1 : 0) -
    cv
  );
}

const JOB_SCORE_THRESHOLD = 4;

/** Parses a job ad into requirements, or says that the text is not one. */
export function extractJobRequirements(text: string): JdExtraction {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  const lines = readLines(text);
  const experience = extractExperience(lines);
  const skills = extractSkills(lines);
  const relevant = lines
    .filter((l) => l.part !== 'company')
    .map((l) => l.text)
    .join('\n');
  const requirements: JobRequirements = {
    min_experience: experience.min,
    max_experience: experience.max,
    seniority_level: extractSeniority(lines),
    work_type: extractWorkType(relevant),
    employment_type: extractEmployment(lines, relevant),
    location: extractLocation(lines),
    skills_required: skills.required,
    skills_good_to_have: skills.preferred,
  };
  const score = jobScore(text, lines, {
    experience: experience.min !== null,
    work: requirements.work_type !== null,
    employment: requirements.employment_type !== null,
    skills: skills.required.length + skills.preferred.length,
  });
  const isJob = words >= MIN_WORDS && score >= JOB_SCORE_THRESHOLD;
  return { is_job_description: isJob, requirements: isJob ? requirements : null };
}

/** The skills a text names, for briefs that come without a skill list. */
export function skillsMentioned(text: string): string[] {
  return skillsIn(text, false);
}
