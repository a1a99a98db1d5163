import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JdExtraction, JobRequirements } from '../../shared/ai/schema';

/**
 * The job-description corpus under test/fixtures and how a parser is scored on it. Labels follow the
 * conventions in test/fixtures/job-descriptions/README.md; scalar fields score exact matches (locations
 * compared without case and punctuation), skill lists score precision and recall over all ads.
 */
const FIXTURES = join(__dirname, '..', 'fixtures');

export interface LabelledAd {
  file: string;
  text: string;
  expected: JobRequirements;
}

/**
 * `development` is the corpus the rules were written against; `holdout` was written after they were frozen
 * and is never used to tune them, so its score is the honest estimate for unseen ads.
 */
export type CorpusSet = 'development' | 'holdout';
const suffix = (set: CorpusSet) => (set === 'holdout' ? '-holdout' : '');

export function jobDescriptions(set: CorpusSet = 'development'): LabelledAd[] {
  const dir = join(FIXTURES, `job-descriptions${suffix(set)}`);
  const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as Record<string, JobRequirements>;
  return Object.entries(labels).map(([file, expected]) => ({ file, text: readFileSync(join(dir, file), 'utf8'), expected }));
}

export function notJobDescriptions(set: CorpusSet = 'development'): Array<{ file: string; text: string }> {
  const dir = join(FIXTURES, `not-job-descriptions${suffix(set)}`);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
}

export const SCALAR_FIELDS = ['min_experience', 'max_experience', 'seniority_level', 'work_type', 'employment_type', 'location'] as const;
export type ScalarField = (typeof SCALAR_FIELDS)[number];

const normalise = (v: unknown) =>
  typeof v === 'string'
    ? v
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()
    : v;

export interface Score {
  recognised: number;
  total: number;
  /** Share of ads whose field matches its label, for each scalar field. */
  fields: Record<ScalarField, number>;
  skills: Record<'skills_required' | 'skills_good_to_have', { precision: number; recall: number }>;
  misses: string[];
}

export function score(parse: (text: string) => JdExtraction, set: CorpusSet = 'development'): Score {
  const ads = jobDescriptions(set);
  const correct = Object.fromEntries(SCALAR_FIELDS.map((f) => [f, 0])) as Record<ScalarField, number>;
  const counts = { skills_required: { tp: 0, got: 0, want: 0 }, skills_good_to_have: { tp: 0, got: 0, want: 0 } };
  const misses: string[] = [];
  let recognised = 0;
  for (const ad of ads) {
    const result = parse(ad.text);
    const got = result.requirements;
    if (result.is_job_description && got) recognised++;
    else misses.push(`${ad.file}: not recognised as a job description`);
    for (const field of SCALAR_FIELDS) {
      const value = got ? got[field] : undefined;
      if (normalise(value) === normalise(ad.expected[field])) correct[field]++;
      else misses.push(`${ad.file}: ${field} ${JSON.stringify(value)} ≠ ${JSON.stringify(ad.expected[field])}`);
    }
    for (const field of ['skills_required', 'skills_good_to_have'] as const) {
      const want = new Set(ad.expected[field].map((s) => s.toLowerCase()));
      const have = new Set((got?.[field] ?? []).map((s) => s.toLowerCase()));
      const tp = [...have].filter((s) => want.has(s)).length;
      counts[field].tp += tp;
      counts[field].got += have.size;
      counts[field].want += want.size;
      const extra = [...have].filter((s) => !want.has(s));
      const missing = [...want].filter((s) => !have.has(s));
      if (extra.length || missing.length) misses.push(`${ad.file}: ${field} extra [${extra.join(', ')}] missing [${missing.join(', ')}]`);
    }
  }
  const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
  return {
    recognised,
    total: ads.length,
    fields: Object.fromEntries(SCALAR_FIELDS.map((f) => [f, ratio(correct[f], ads.length)])) as Record<ScalarField, number>,
    skills: {
      skills_required: {
        precision: ratio(counts.skills_required.tp, counts.skills_required.got),
        recall: ratio(counts.skills_required.tp, counts.skills_required.want),
      },
      skills_good_to_have: {
        precision: ratio(counts.skills_good_to_have.tp, counts.skills_good_to_have.got),
        recall: ratio(counts.skills_good_to_have.tp, counts.skills_good_to_have.want),
      },
    },
    misses,
  };
}
