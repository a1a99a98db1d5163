import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadConfig } from '../../infra/config';
import { join } from 'node:path';
import { connectDatabase, type Database } from '../../infra/database';
import { adminStores } from '../../composition/admin-stores';
import type { ServiceProcess } from '../../scripts/bench/processes';
import { freePort } from '../../infra/free-port';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { serviceProcessEnv, startServiceFromBuild } from '../helpers/stack';
import { readChecked } from '../helpers/api-contract';
import { startHttpStub, type HttpStub } from '../helpers/http-stub';
import { matching as matchingSamples, scrape, valueOf, type Sample } from '../helpers/prometheus';
import { waitFor } from '../helpers/wait';
import { scratchDir } from '../helpers/scratch';

const ROOT = join(__dirname, '..', '..');

/**
 * The metrics as an operator scrapes them: an API and a worker, each a process of its own with its own
 * `/metrics` listener, after one call (with a WhatsApp template and a webhook) and one invitation. Each
 * process is scraped before and after, and the counts must have moved by exactly what happened.
 */
describe('Prometheus metrics of the API and the worker', () => {
  let db: Database;
  let env: Record<string, string>;
  let key: string;
  let receiver: HttpStub;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  const logDir = scratchDir('metrics');

  beforeAll(async () => {
    env = { ...(await serviceProcessEnv('metrics')), SIMULATOR_CALL_SECONDS: '0' };
    db = await connectDatabase(env.MONGODB_URI, env.MONGODB_DB);
    key = (
      await adminStores(db).workspaces.create({ name: 'Metrics', company: 'Metrics Inc', senderFirstName: 'Ada', senderLastName: 'L' })
    ).api_key;
    receiver = await startHttpStub(() => ({ status: 200, body: { ok: true } }));
    [api, worker] = await Promise.all([
      startServiceFromBuild('api', { ...env, METRICS_PORT: String(await freePort()) }, join(logDir, 'api.log')),
      startServiceFromBuild('worker', { ...env, METRICS_PORT: String(await freePort()) }, join(logDir, 'worker.log')),
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await receiver?.close();
    await db?.db.dropDatabase();
    await db?.close();
  });

  const request = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${env.PORT}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-service-api-key': key },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return readChecked(method, path, res);
  };

  it('serves metrics on its own listener, not on the API port', async () => {
    expect(api.metricsUrl).not.toContain(`:${env.PORT}/`);
    expect((await fetch(`http://127.0.0.1:${env.PORT}/metrics`)).status).toBe(404);
    expect((await fetch(api.metricsUrl!.replace('/metrics', '/other'))).status).toBe(404);
    const res = await fetch(api.metricsUrl!);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('starts whole: every hiring_ series of a known label set is there at 0 before its first event', async () => {
    // A process of its own, fresh: the suite's processes may have counted something already.
    const fresh = await startServiceFromBuild(
      'api',
      { ...env, PORT: String(await freePort()), METRICS_PORT: String(await freePort()) },
      join(logDir, 'api-fresh.log'),
    );
    try {
      const samples = await scrape(fresh.metricsUrl!);
      const at = (name: string, labels: Record<string, string>) => matchingSamples(samples, name, labels);
      for (const [name, labels] of [
        ['hiring_whatsapp_messages_total', { kind: 'pre_call', result: 'sent' }],
        ['hiring_whatsapp_messages_total', { kind: 'fallback', result: 'read' }],
        ['hiring_webhook_deliveries_total', { result: 'delivered' }],
        ['hiring_webhook_deliveries_total', { result: 'failed' }],
        ['hiring_call_attempts_total', { direction: 'inbound', outcome: 'completed', failure_reason: 'none' }],
        ['hiring_call_attempts_total', { direction: 'outbound', outcome: 'failed', failure_reason: 'missed' }],
        ['hiring_calls_ended_total', { status: 'cancelled' }],
        ['hiring_interviews_total', { stage: 'expired' }],
        ['hiring_emails_total', { kind: 'reminder', result: 'refused' }],
        ['hiring_ai_requests_total', { operation: 'parse_job_description', result: 'error' }],
        ['hiring_erased_writes_refused_total', { kind: 'report' }],
      ] as const) {
        expect({ name, labels, values: at(name, labels).map((s) => s.value) }).toEqual({ name, labels, values: [0] });
      }
      expect(samples.some((s) => s.name === 'hiring_calls_started_total' && s.value === 0)).toBe(true);
    } finally {
      await fresh.stop();
    }
  }, 120_000);

  /** One call and one invitation, run once for the tests that read their counts, in whatever order they run. */
  let work: ReturnType<typeof oneCallAndOneInvitation> | undefined;
  const worked = () => (work ??= oneCallAndOneInvitation());
  async function oneCallAndOneInvitation() {
    const before = { api: await scrape(api.metricsUrl!), worker: await scrape(worker.metricsUrl!) };
    await request('POST', '/api/public/v1/webhooks', { url: `${receiver.url}/hooks`, events: ['call.completed'] });
    await request('POST', '/api/public/v1/campaigns', { ats_job_id: 'job-metrics', name: 'Metrics' });
    const initiated = await request('POST', '/api/public/v1/call/initiate', {
      ats_job_id: 'job-metrics',
      instructions: 'Ask {{candidate_first_name}} about availability.',
      candidates: [{ id: 'm1', name: 'Mia Metric', email: 'mia@example.com', phone: '+14155550161' }],
      call_settings: { whatsapp_notifications: { pre_call: { template_name: 'heads_up', template_variables: {} } } },
    });
    const callId = initiated.body.data.calls[0].id as string;
    const invited = await request(
      'POST',
      '/api/public/v1/interview/invite',
      inviteBody([inviteCandidate(1)], { ats_job_id: 'job-metrics-i' }),
    );
    const interviewId = invited.body.data.interviews[0].id as string;
    await waitFor(
      () => request('GET', `/api/public/v1/calls/${callId}`),
      (r) => r.body.data.status === 'completed',
      60_000,
    );
    await waitFor(
      () => request('GET', `/api/public/v1/interviews/${interviewId}`),
      (r) => r.body.data.status === 'invited',
      60_000,
    );
    await waitFor(
      async () => receiver.requests.length,
      (n) => n === 1,
      30_000,
    );
    // The webhook's try is counted right after the receiver answers.
    const after = await waitFor(
      async () => ({ api: await scrape(api.metricsUrl!), worker: await scrape(worker.metricsUrl!) }),
      (s) => valueOf(s.worker, 'hiring_webhook_deliveries_total', { result: 'delivered' }) > 0,
      10_000,
    );
    return { before, after };
  }

  it('counts one call and one invitation exactly once, in the process that saw each happen', async () => {
    const { before, after } = await worked();
    const moved = (of: 'api' | 'worker', name: string, labels: Record<string, string> = {}) =>
      valueOf(after[of], name, labels) - valueOf(before[of], name, labels);

    expect(moved('api', 'hiring_calls_started_total')).toBe(1);
    expect(
      moved('api', 'http_server_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/public/v1/call/initiate',
        status_code: '200',
      }),
    ).toBe(1);
    expect(
      moved('api', 'http_server_request_duration_seconds_count', { method: 'GET', route: '/api/public/v1/calls/:id', status_code: '200' }),
    ).toBeGreaterThan(0);
    expect(moved('worker', 'hiring_call_attempts_total', { direction: 'outbound', outcome: 'completed', failure_reason: 'none' })).toBe(1);
    expect(moved('worker', 'hiring_call_attempts_total', { direction: 'inbound', outcome: 'completed', failure_reason: 'none' })).toBe(0);
    expect(moved('worker', 'hiring_calls_ended_total', { status: 'completed' })).toBe(1);
    expect(moved('worker', 'hiring_calls_ended_total', { status: 'failed' })).toBe(0);
    expect(moved('worker', 'hiring_whatsapp_messages_total', { kind: 'pre_call', result: 'sent' })).toBe(1);
    expect(moved('worker', 'hiring_interviews_total', { stage: 'invited' })).toBe(1);
    expect(moved('worker', 'hiring_emails_total', { kind: 'invitation', result: 'sent' })).toBe(1);
    expect(moved('worker', 'hiring_webhook_deliveries_total', { result: 'delivered' })).toBe(1);
    expect(moved('worker', 'hiring_ai_requests_total', { operation: 'generate_questions', result: 'ok' })).toBe(1);
    // Nothing of this was counted in the other process.
    expect(moved('worker', 'hiring_calls_started_total')).toBe(0);
    expect(moved('api', 'hiring_call_attempts_total', { direction: 'outbound', outcome: 'completed', failure_reason: 'none' })).toBe(0);
  }, 120_000);

  it('labels routes by template and never by an id, an address or a job', async () => {
    await request('GET', '/api/public/v1/calls/call_doesnotexist');
    await fetch(`http://127.0.0.1:${env.PORT}/no/such/path/abc123`);
    const samples = await scrape(api.metricsUrl!);
    const routes = new Set(samples.filter((s) => s.name.startsWith('http_server_request_duration_seconds')).map((s) => s.labels.route));
    expect(routes).toContain('/api/public/v1/calls/:id');
    expect(routes).toContain('unmatched');
    const values = samples.flatMap((s) => Object.values(s.labels)).join(' ');
    for (const forbidden of ['job-metrics', '@', '+1415', 'abc123']) expect(values).not.toContain(forbidden);
    // No call or interview id (`call_…`, `int_…` and hex); a reason such as `call_back_incomplete` is a word.
    expect(values).not.toMatch(/\b(call|int)_[0-9a-f]{8,}/);
  });

  it("has Node's process metrics in both, and the Temporal SDK's own in the worker", async () => {
    await worked();
    const [a, w] = await Promise.all([scrape(api.metricsUrl!), scrape(worker.metricsUrl!)]);
    const names = (s: Sample[]) => new Set(s.map((x) => x.name));
    for (const n of ['process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds', 'process_resident_memory_bytes']) {
      expect(names(a)).toContain(n);
      expect(names(w)).toContain(n);
    }
    expect([...names(a)].filter((n) => n.startsWith('temporal_'))).toEqual([]);
    expect(names(w)).toContain('temporal_workflow_task_schedule_to_start_latency_seconds_bucket');
    expect(names(w)).toContain('temporal_activity_execution_latency_seconds_bucket');
    expect(names(w)).toContain('hiring_calls_in_progress');
    expect(names(w)).toContain('hiring_calls_waiting_for_capacity');
    expect(valueOf(w, 'hiring_calls_in_progress')).toBe(0);
    expect(names(a)).not.toContain('hiring_calls_in_progress');
  }, 120_000);

  it('has a dashboard whose every PromQL expression uses only metric names this service exposes', async () => {
    await worked();
    const exposed = new Set([...(await scrape(api.metricsUrl!)), ...(await scrape(worker.metricsUrl!))].map((x) => x.name));
    const dashboard = JSON.parse(readFileSync(join(ROOT, 'deploy', 'grafana', 'hiring-integration.json'), 'utf8'));
    const exprs: string[] = dashboard.panels.flatMap((p: any) => p.targets.map((t: any) => t.expr));
    const used = new Set(exprs.flatMap(metricNamesIn));
    expect(used.size).toBeGreaterThan(15);
    expect([...used].filter((name) => !exposed.has(name))).toEqual([]);
    // Each of the service's own counters and gauges is on it.
    const ours = [...exposed].filter((n) => n.startsWith('hiring_'));
    expect(ours.filter((n) => !used.has(n))).toEqual([]);
  });

  it('has a Prometheus configuration that scrapes the API and the worker where they listen by default', () => {
    const prometheus = parse(readFileSync(join(ROOT, 'deploy', 'prometheus', 'prometheus.yml'), 'utf8'));
    const ports = Object.fromEntries(prometheus.scrape_configs.map((j: any) => [j.job_name, j.dns_sd_configs[0].port]));
    const base = { MONGODB_URI: 'mongodb://x' };
    expect(ports).toEqual({
      'hiring-api': loadConfig({ ...base, ROLE: 'api' }).METRICS_PORT,
      'hiring-worker': loadConfig({ ...base, ROLE: 'worker' }).METRICS_PORT,
    });
  });
});

/** The metric names a PromQL expression selects: what is left once strings, matchers, ranges, groupings and functions are gone. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"[^"]*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without)\s*\([^)]*\)/g, '');
  const FUNCTIONS = new Set(['sum', 'max', 'min', 'avg', 'rate', 'increase', 'histogram_quantile', 'clamp_min']);
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((n) => !FUNCTIONS.has(n));
}
