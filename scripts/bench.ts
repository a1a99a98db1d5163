import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../infra/config';
import { connectDatabase } from '../infra/database';
import { createLogger } from '../infra/logger';
import { createWorkspace } from '../infra/workspaces';
import { startService } from '../main';
import { freePort, startDatabase, startTemporalDevServer, type RunningService } from './services';
import { extractJobRequirements } from '../shared/jd-extractor';
import { benchVapiReports } from './bench-vapi';

/**
 * `npm run bench`: the whole service (API and worker in one process, FerretDB or MONGODB_URI, a fresh Temporal
 * dev server) under the two bulk operations and the rate-limited parse-jd, timed from the client's side, plus
 * the offline job-description parser on its own, and the Vapi report path (scripts/bench-vapi.ts). Each scenario runs ROUNDS times; the table shows the median
 * and the worst round.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function main(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'hiring-bench-'));
  const servers: RunningService[] = [];
  try {
    const db = await startDatabase({ dataDir: join(dir, 'db'), logDir: join(dir, 'logs') });
    servers.push(db);
    const temporal = process.env.TEMPORAL_ADDRESS ? null : await startTemporalDevServer({ headless: true, logDir: join(dir, 'logs') });
    if (temporal) servers.push(temporal);
    const port = await freePort();
    const config = loadConfig({
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      MONGODB_URI: db.uri,
      MONGODB_DB: `bench_${Date.now()}`,
      TEMPORAL_ADDRESS: temporal?.address ?? process.env.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: `bench-${Date.now()}`,
      SIMULATOR_CALL_SECONDS: '0',
    });
    const service = await startService(config, createLogger('silent'));
    servers.unshift({ name: 'service', stop: service.stop });
    const store = await connectDatabase(config.MONGODB_URI, config.MONGODB_DB);
    const { api_key: key } = await createWorkspace(store, { name: 'Bench', company: 'Bench Inc', senderFirstName: 'Ada', senderLastName: 'Lovelace' });
    const post = async (path: string, body: unknown, apiKey = key) => {
      const res = await fetch(`${service.apiUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-api-key': apiKey }, body: JSON.stringify(body) });
      if (res.status !== 200 && res.status !== 201) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      return res.json() as Promise<any>;
    };
    const until = async (check: () => Promise<boolean>) => {
      while (!(await check())) await new Promise((r) => setTimeout(r, 50));
    };

    const rows: Array<[string, number[]]> = [];
    const invite: number[] = [];
    const invited: number[] = [];
    const calls: number[] = [];
    const called: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const job = `bench-${round}`;
      const candidates = Array.from({ length: 200 }, (_, i) => ({ id: `c${i}`, name: `Bench Candidate ${'abcdefghij'[i % 10]}`, email: `c${i}.${round}@example.com` }));
      const t0 = performance.now();
      const res = await post('/api/public/v1/interview/invite', {
        ats_job_id: job, job_title: 'Data Engineer', job_description: 'Build pipelines.', min_experience: 2, max_experience: 5,
        seniority_level: 'Mid', work_type: 'Remote', employment_type: 'Full Time', location: 'Remote',
        skills_required: ['Python', 'SQL', 'Spark'], skills_good_to_have: ['Kafka', 'dbt', 'Airflow'], candidates,
      });
      invite.push(performance.now() - t0);
      await until(async () => (await store.interviews.countDocuments({ project_id: res.data.project_id, 'email.status': 'sent' })) === 200);
      invited.push(performance.now() - t0);

      await post('/api/public/v1/campaigns', { ats_job_id: `${job}-calls`, name: 'Bench calls' });
      const t1 = performance.now();
      const callRes = await post('/api/public/v1/call/initiate', {
        ats_job_id: `${job}-calls`, instructions: 'Ask {{candidate_first_name}} about availability.',
        candidates: Array.from({ length: 50 }, (_, i) => ({ id: `k${i}`, name: 'Bench Candidate', email: `k${i}@example.com`, phone: `+1415555${String(1000 + i)}` })),
      });
      calls.push(performance.now() - t1);
      await until(async () => (await store.calls.countDocuments({ project_id: callRes.data.project_id, status: 'completed' })) === 50);
      called.push(performance.now() - t1);
    }
    // parse-jd end to end (auth, validation, budget in the database, offline parser), each round in a fresh
    // workspace so the 5-per-minute budget is not the thing measured; and the parser alone over the corpus.
    const corpusDir = join(__dirname, '..', 'test', 'fixtures', 'job-descriptions');
    const ads = readdirSync(corpusDir).filter((f) => /\.(txt|md)$/.test(f) && f !== 'README.md').map((f) => readFileSync(join(corpusDir, f), 'utf8'));
    const parseJd: number[] = [];
    const parser: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { api_key: fresh } = await createWorkspace(store, { name: `Bench ${round}`, company: 'Bench Inc', senderFirstName: 'Ada', senderLastName: 'Lovelace' });
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await post('/api/public/v1/ai/parse-jd', { job_description: ads[i] }, fresh);
        parseJd.push(performance.now() - t);
      }
      const t = performance.now();
      for (const ad of ads) extractJobRequirements(ad);
      parser.push((performance.now() - t) / ads.length);
    }
    rows.push(['interview/invite, 200 candidates: response', invite], ['  ... until all 200 emails are sent', invited]);
    rows.push(['parse-jd (offline model): response', parseJd], ['offline parser alone, per job description', parser]);
    rows.push(['call/initiate, 50 candidates: response', calls], ['  ... until all 50 calls completed (simulator)', called]);
    const vapi = await benchVapiReports(config, ROUNDS);
    await vapi.stop();
    rows.push(['Vapi end-of-call report (50 at once): response', vapi.report], ['  ... until all 50 calls completed', vapi.completed]);
    await store.db.dropDatabase();
    await store.close();

    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
    return [
      `\n${ROUNDS} rounds, database ${db.flavour}\n`,
      `${'scenario'.padEnd(50)}${'median ms'.padStart(12)}${'worst ms'.padStart(12)}`,
      ...rows.map(([name, xs]) => `${name.padEnd(50)}${ms(median(xs)).padStart(12)}${ms(Math.max(...xs)).padStart(12)}`),
      '',
    ].join('\n');
  } finally {
    for (const s of servers) await s.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

// Exits explicitly once the report is flushed: the Temporal runtime would otherwise keep the process alive.
main().then(
  (report) => process.stdout.write(report, () => process.exit(0)),
  (err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
