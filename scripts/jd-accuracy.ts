import { extractJobRequirements } from '../shared/ai/jd-extractor';
import { notJobDescriptions, score, SCALAR_FIELDS, type CorpusSet } from '../test/helpers/jd-corpus';

/**
 * `npm run jd:accuracy`: the offline job-description parser scored on the fixture corpus, per field, as
 * docs/ai-operations.md reports it. `--misses` lists every disagreement with the labels.
 */
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const lines: string[] = [];
const sets: CorpusSet[] = ['development', 'holdout'];
const results = sets.map((set) => ({ set, s: score(extractJobRequirements, set), others: notJobDescriptions(set) }));

lines.push(
  `| field | ${results.map(({ set, s }) => `${set} (${s.total} ads)`).join(' | ')} |`,
  `|---|${results.map(() => '---').join('|')}|`,
);
lines.push(`| recognised as a job description | ${results.map(({ s }) => `${s.recognised}/${s.total}`).join(' | ')} |`);
lines.push(
  `| other texts rejected | ${results.map(({ others }) => `${others.filter((t) => !extractJobRequirements(t.text).is_job_description).length}/${others.length}`).join(' | ')} |`,
);
for (const field of SCALAR_FIELDS) lines.push(`| ${field} | ${results.map(({ s }) => pct(s.fields[field])).join(' | ')} |`);
for (const field of ['skills_required', 'skills_good_to_have'] as const) {
  lines.push(
    `| ${field} precision / recall | ${results.map(({ s }) => `${pct(s.skills[field].precision)} / ${pct(s.skills[field].recall)}`).join(' | ')} |`,
  );
}
if (process.argv.includes('--misses')) for (const { set, s } of results) lines.push('', `${set}:`, ...s.misses.map((m) => `  ${m}`));
console.log(lines.join('\n'));
