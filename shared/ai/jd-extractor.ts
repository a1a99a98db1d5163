import type { JdExtraction, JobRequirements } from './schema';
import { SKILLS } from './skills-vocabulary';
import { readLines, type Line, type Part } from './jd-lines';
import { extractEmployment, extractExperience, extractLocation, extractSeniority, extractWorkType } from './jd-fields';

/**
 * The offline job-description parser: deterministic rules over the text's structure and wording, used when
 * no language model is configured. It reads only what the text states: a field it finds no evidence for is
 * null (an empty list for skills), never a guess. Its accuracy on the fixture corpus is reported in docs/ai-operations.md.
 */

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

interface Hit {
  start: number;
  end: number;
  name: string;
  contextual: boolean;
}

/** Every match of the vocabulary in the text, in text order: each skill's pattern runs once over all of it. */
function skillHits(text: string, allowContextual: boolean): Hit[] {
  const hits: Hit[] = [];
  for (const skill of COMPILED) {
    if (skill.contextual && !allowContextual) continue;
    for (const m of text.matchAll(skill.pattern)) {
      hits.push({ start: m.index!, end: m.index! + m[0].length, name: skill.name, contextual: skill.contextual });
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}

/**
 * The skills of one stretch of text, longest match first, so "AWS SageMaker" is one skill and "Tailwind CSS"
 * is not CSS. `taken` marks the characters a longer match already holds, so each hit is checked in the time of
 * its own length rather than against every hit taken before it.
 */
function longestFirst(hits: Hit[], taken: Uint8Array): string[] {
  const kept: Hit[] = [];
  for (const hit of [...hits].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start)) {
    if (taken.subarray(hit.start, hit.end).includes(1)) continue;
    taken.fill(1, hit.start, hit.end);
    kept.push(hit);
  }
  return kept.sort((a, b) => a.start - b.start).map((h) => h.name);
}

/**
 * Where the clauses of a line are: it splits at semicolons, at ". " and at commas outside parentheses, so
 * "Python (pandas, scikit-learn)" stays one clause. A comma is inside when the next parenthesis after it
 * closes one, found by one pass from the right, not by a look-ahead per comma, which took quadratic time over
 * a text of commas.
 */
function clauseSpans(text: string): Array<[number, number]> {
  const insideAt: boolean[] = new Array<boolean>(text.length);
  let closesNext = false;
  for (let i = text.length - 1; i >= 0; i--) {
    if (text[i] === ')') closesNext = true;
    else if (text[i] === '(') closesNext = false;
    insideAt[i] = closesNext;
  }
  const spans: Array<[number, number]> = [];
  const add = (start: number, end: number) => {
    if (text.slice(start, end).trim()) spans.push([start, end]);
  };
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    let next = -1;
    if (c === ';' || (c === ',' && !insideAt[i])) next = i + 1;
    else if (c === '.' && /\s/.test(text[i + 1] ?? '')) {
      next = i + 1;
      while (next < text.length && /\s/.test(text[next])) next++;
    }
    if (next === -1) continue;
    add(from, i);
    from = next;
    i = next - 1;
  }
  add(from, text.length);
  return spans;
}

interface Clause {
  start: number;
  end: number;
  preferred: boolean;
  /** Whether skills that count only where asked for count here. */
  asked: boolean;
}

/**
 * The skills each clause of the ad asks or wishes for. The lines are matched as one text, and each match goes
 * to the clause that holds it, so the time grows with the text's length, not with its count of clauses.
 */
function extractSkills(lines: Line[]): { required: string[]; preferred: string[] } {
  const clauses: Clause[] = [];
  let text = '';
  for (const line of lines) {
    const part = line.labelPart ?? line.part;
    if (part === 'company') continue;
    const wishes = part === 'preferred';
    const asked = part === 'required' || part === 'preferred';
    for (const [start, end] of clauseSpans(line.text)) {
      const wished = PREFERRED_CLAUSE.test(line.text.slice(start, end));
      clauses.push({ start: text.length + start, end: text.length + end, preferred: wishes || wished, asked: asked || wished });
    }
    text += line.text + '\n';
  }
  const hits = skillHits(text, true);
  const taken = new Uint8Array(text.length);
  const required: string[] = [];
  const preferred: string[] = [];
  let h = 0;
  for (const clause of clauses) {
    while (h < hits.length && hits[h].start < clause.start) h++;
    const inside: Hit[] = [];
    for (; h < hits.length && hits[h].start < clause.end; h++) {
      const hit = hits[h];
      if (hit.end <= clause.end && (clause.asked || !hit.contextual)) inside.push(hit);
    }
    const target = clause.preferred ? preferred : required;
    for (const skill of longestFirst(inside, taken)) if (!target.includes(skill)) target.push(skill);
  }
  // A skill that is both asked for and wished for is required.
  return { required, preferred: preferred.filter((s) => !required.includes(s)) };
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
  return longestFirst(skillHits(text, false), new Uint8Array(text.length));
}
