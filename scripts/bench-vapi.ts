import { createHmac, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../infra/config';
import { connectDatabase } from '../infra/database';
import { createLogger } from '../infra/logger';
import { createWorkspace } from '../infra/workspaces';
import { startService } from '../main';
import { freePort } from './services';
import { VAPI_EVENTS_PATH } from '../shared/public-urls';

const SECRET = 'bench-webhook-secret';

/**
 * The Vapi path under load: a second service with the Vapi adapter pointed at a local stand-in for Vapi's API
 * (it answers create-call at once), 50 calls placed, then 50 signed end-of-call reports sent at once, as Vapi
 * does when calls end together. Times each report's response and the time until all 50 calls are completed.
 */
export async function benchVapiReports(base: Config, rounds: number): Promise<{ report: number[]; completed: number[]; stop: () => Promise<void> }> {
  const dials: Array<{ callId: string; attempt: number; id: string }> = [];
  const vapi = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url === '/call') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const id = randomUUID();
        dials.push({ callId: body.assistant.metadata.call_id, attempt: body.assistant.metadata.attempt, id });
        res.statusCode = 201;
        res.end(JSON.stringify({ id, orgId: 'bench', status: 'queued', createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() }));
      } else res.end('[]');
    });
  });
  await new Promise<void>((r) => vapi.listen(0, '127.0.0.1', r));
  const config = loadConfig({
    ...process.env,
    ...Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])),
    PORT: String(await freePort()),
    MONGODB_DB: `bench_vapi_${Date.now()}`,
    TEMPORAL_TASK_QUEUE: `bench-vapi-${Date.now()}`,
    VOICE_PROVIDER: 'vapi',
    VAPI_API_KEY: 'bench',
    VAPI_BASE_URL: `http://127.0.0.1:${(vapi.address() as AddressInfo).port}`,
    VAPI_PHONE_NUMBER_ID: 'bench-number',
    VAPI_WEBHOOK_SECRET: SECRET,
  });
  const service = await startService(config, createLogger('silent'));
  const store = await connectDatabase(config.MONGODB_URI, config.MONGODB_DB);
  const stop = async () => {
    await service.stop();
    await store.db.dropDatabase();
    await store.close();
    await new Promise((r) => vapi.close(r));
  };
  const { api_key: key } = await createWorkspace(store, { name: 'Bench', company: 'Bench Inc', senderFirstName: 'Ada', senderLastName: 'Lovelace' });
  const post = async (path: string, body: unknown, headers: Record<string, string>) => {
    const raw = JSON.stringify(body);
    const res = await fetch(`${service.apiUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
    if (res.status !== 200 && res.status !== 201) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const until = async (check: () => Promise<boolean>) => {
    while (!(await check())) await new Promise((r) => setTimeout(r, 50));
  };

  const report: number[] = [];
  const completed: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const job = `bench-vapi-${round}`;
    await post('/api/public/v1/campaigns', { ats_job_id: job, name: 'Bench Vapi' }, { 'x-service-api-key': key });
    dials.length = 0;
    const res = await post(
      '/api/public/v1/call/initiate',
      {
        ats_job_id: job,
        instructions: 'Ask {{candidate_first_name}} about availability.',
        extract_variables: [{ label: 'years', type: 'integer', description: 'Years of experience' }],
        candidates: Array.from({ length: 50 }, (_, i) => ({ id: `v${i}`, name: 'Bench Candidate', email: `v${i}@example.com`, phone: `+1415555${String(3000 + i)}` })),
      },
      { 'x-service-api-key': key },
    );
    await until(async () => (await store.calls.countDocuments({ project_id: res.data.project_id, 'attempts.0.provider_call_id': { $ne: null } })) === 50);
    const t0 = performance.now();
    await Promise.all(
      dials.map(async (d) => {
        const message = {
          message: {
            type: 'end-of-call-report',
            endedReason: 'assistant-ended-call',
            durationSeconds: 95,
            call: { id: d.id, name: `${d.callId}#${d.attempt}`, assistant: { metadata: { call_id: d.callId, attempt: d.attempt } } },
            artifact: { messages: [{ role: 'bot', message: 'Hello' }, { role: 'user', message: 'Hi, I have 4 years.' }] },
            analysis: { structuredData: { years: '4' } },
          },
        };
        const t = performance.now();
        await post(VAPI_EVENTS_PATH, message, { 'x-vapi-signature': createHmac('sha256', SECRET).update(JSON.stringify(message)).digest('hex') });
        report.push(performance.now() - t);
      }),
    );
    await until(async () => (await store.calls.countDocuments({ project_id: res.data.project_id, status: 'completed' })) === 50);
    completed.push(performance.now() - t0);
  }
  return { report, completed, stop };
}
