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
