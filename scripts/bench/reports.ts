import { createHmac, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { VAPI_EVENTS_PATH } from '../../shared/public-urls';
import { freePort } from '../services';
import { startServiceProcess } from './processes';
import { callCandidates } from './scenarios';
import { untilEach, type BenchStack } from './stack';

const SECRET = 'bench-webhook-secret';

/**
 * The provider-callback path under load: a second API and worker with the Vapi adapter, pointed at a local
 * stand-in for Vapi's API that accepts every create-call at once. Each round places 50 calls, then sends their
 * 50 signed end-of-call reports at once, as Vapi does when calls end together: the time each report is
 * answered, and the time until all 50 calls are completed.
 */
export async function reports(stack: BenchStack, rounds: number): Promise<{ report: number[]; completed: number[] }> {
  const dials = new Map<string, string>();
  const vapi = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'POST' || req.url !== '/call') return res.end('[]');
      const { assistant } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const id = randomUUID();
      dials.set(`${assistant.metadata.call_id}#${assistant.metadata.attempt}`, id);
      res.statusCode = 201;
      res.end(
        JSON.stringify({ id, orgId: 'bench', status: 'queued', createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() }),
      );
    });
  });
  await new Promise<void>((r) => vapi.listen(0, '127.0.0.1', r));
  const port = await freePort();
  const env = {
    ...stack.env,
    PORT: String(port),
    TEMPORAL_TASK_QUEUE: `${stack.env.TEMPORAL_TASK_QUEUE}-vapi`,
    VOICE_PROVIDER: 'vapi',
    VAPI_API_KEY: 'bench',
    VAPI_BASE_URL: `http://127.0.0.1:${(vapi.address() as AddressInfo).port}`,
    VAPI_PHONE_NUMBER_ID: 'bench-number',
    VAPI_WEBHOOK_SECRET: SECRET,
  };
  const worker = await startServiceProcess('worker', env, join(stack.logDir, 'vapi-worker.log'));
  const api = await startServiceProcess('api', env, join(stack.logDir, 'vapi-api.log'));
  const url = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    if (res.status !== 200 && res.status !== 201) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const auth = { 'x-service-api-key': stack.key };
  const report: number[] = [];
  const completed: number[] = [];
  /** Places `n` calls, sends their reports at once, and waits for the calls to complete; the times taken. */
  const round = async (job: string, n: number): Promise<{ report: number[]; completed: number }> => {
    const times: number[] = [];
    await post('/api/public/v1/campaigns', { ats_job_id: job, name: 'Bench Vapi' }, auth);
    const res = await post(
      '/api/public/v1/call/initiate',
      {
        ats_job_id: job,
        instructions: 'Ask {{candidate_first_name}} about availability.',
        extract_variables: [{ label: 'years', type: 'integer', description: 'Years of experience' }],
        candidates: callCandidates(n, 'v'),
      },
      auth,
    );
    const ids: string[] = res.data.calls.map((c: { id: string }) => c.id);
    await untilEach(ids, async (id) => Boolean((await stack.store.calls.findOne({ _id: id }))?.attempts[0]?.provider_call_id));
    const t0 = performance.now();
    await Promise.all(
      ids.map(async (callId) => {
        const message = {
          message: {
            type: 'end-of-call-report',
            timestamp: Date.now(),
            endedReason: 'assistant-ended-call',
            durationSeconds: 95,
            call: { id: dials.get(`${callId}#1`), name: `${callId}#1`, assistant: { metadata: { call_id: callId, attempt: 1 } } },
            artifact: {
              messages: [
                { role: 'bot', message: 'Hello' },
                { role: 'user', message: 'Hi, I have 4 years.' },
              ],
            },
            analysis: { structuredData: { years: '4' } },
          },
        };
        const t = performance.now();
        // Signed as Vapi signs: over `{timestamp}.{body}`, with the timestamp beside it.
        const timestamp = String(Math.floor(Date.now() / 1000));
        await post(VAPI_EVENTS_PATH, message, {
          'x-vapi-signature': createHmac('sha256', SECRET)
            .update(`${timestamp}.${JSON.stringify(message)}`)
            .digest('hex'),
          'x-vapi-timestamp': timestamp,
        });
        times.push(performance.now() - t);
      }),
    );
    await untilEach(ids, async (id) => (await stack.store.calls.findOne({ _id: id }))?.status === 'completed');
    return { report: times, completed: performance.now() - t0 };
  };
  try {
    // A fresh API and worker: a few reports first, uncounted, as the other scenarios warm their stack up.
    await round('bench-vapi-warm', 5);
    for (let r = 0; r < rounds; r++) {
      const measured = await round(`bench-vapi-${r}`, 50);
      report.push(...measured.report);
      completed.push(measured.completed);
    }
  } finally {
    await api.stop();
    await worker.stop();
    await new Promise((r) => vapi.close(r));
  }
  return { report, completed };
}
