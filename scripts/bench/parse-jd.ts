import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminStores } from '../../composition/admin-stores';
import { extractJobRequirements } from '../../shared/ai/jd-extractor';
import type { BenchStack } from './stack';

/**
 * parse-jd end to end (auth, validation, budget in the database, offline parser), five a round, each round in
 * a fresh workspace so the 5-per-minute budget is not what is measured; and the parser alone over the corpus.
 */
export async function parseJd(stack: BenchStack, rounds: number): Promise<{ response: number[]; parser: number[] }> {
  const dir = join(__dirname, '..', '..', 'test', 'fixtures', 'job-descriptions');
  const ads = readdirSync(dir)
    .filter((f) => /\.(txt|md)$/.test(f) && f !== 'README.md')
    .map((f) => readFileSync(join(dir, f), 'utf8'));
  const response: number[] = [];
  const parser: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const { api_key } = await adminStores(stack.store).workspaces.create({
      name: `Bench ${round}`,
      company: 'Bench Inc',
      senderFirstName: 'Ada',
      senderLastName: 'Lovelace',
    });
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await stack.post('/api/public/v1/ai/parse-jd', { job_description: ads[i] }, { 'x-service-api-key': api_key });
      response.push(performance.now() - t);
    }
    const t = performance.now();
    for (const ad of ads) extractJobRequirements(ad);
    parser.push((performance.now() - t) / ads.length);
  }
  return { response, parser };
}
