import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { connectDatabase, type Database } from '../../infra/database';
import { adminStores } from '../../composition/admin-stores';
import type { ServiceProcess } from '../../scripts/bench/processes';
import { serviceProcessEnv, workflowBundle, startServiceFromBuild } from '../helpers/stack';
import { readChecked } from '../helpers/api-contract';
import { startHttpStub, type HttpStub } from '../helpers/http-stub';
import { waitFor } from '../helpers/wait';
import { scratchDir } from '../helpers/scratch';

/** A span as an OTLP/HTTP JSON export carries it, with the service that sent it. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: { stringValue?: string } }>;
}

/**
 * Tracing as an operator turns it on: an API and a worker process exporting to a local OTLP/HTTP receiver
 * (JSON), and one ATS request with its own `traceparent`. The trace it names must hold the API's request, the
 * workflow start, the workflow, its activities and the outbound webhook call, and the log lines of the
 * request must carry its ids.
 */
describe('OpenTelemetry traces from the ATS request to the providers', () => {
  let db: Database;
  let env: Record<string, string>;
  let key: string;
  let collector: HttpStub;
  let receiver: HttpStub;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  const logDir = scratchDir('tracing');

  beforeAll(async () => {
    collector = await startHttpStub(() => ({ status: 200, body: {} }));
    receiver = await startHttpStub(() => ({ status: 200, body: { ok: true } }));
    env = {
      ...(await serviceProcessEnv('tracing')),
      SIMULATOR_CALL_SECONDS: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // A traced worker loads the bundle made with tracing's workflow interceptors.
      WORKFLOW_BUNDLE_PATH: (await workflowBundle({ traced: true })).codePath,
    };
    db = await connectDatabase(env.MONGODB_URI, env.MONGODB_DB);
    key = (await adminStores(db).workspaces.create({ name: 'Traced', company: 'Traced Inc', senderFirstName: 'Ada', senderLastName: 'L' }))
      .api_key;
    [api, worker] = await Promise.all([
      startServiceFromBuild('api', { ...env, OTEL_SERVICE_NAME: 'hiring-api' }, join(logDir, 'api.log')),
      startServiceFromBuild('worker', { ...env, OTEL_SERVICE_NAME: 'hiring-worker' }, join(logDir, 'worker.log')),
    ]);
  }, 240_000);
  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await Promise.all([collector?.close(), receiver?.close()]);
    await db?.db.dropDatabase();
    await db?.close();
  });

  const spans = (): ExportedSpan[] =>
    collector.requests
      .filter((r) => r.path === '/v1/traces')
      .flatMap((r) =>
        (r.body.resourceSpans ?? []).flatMap((rs: any) => {
          const service = rs.resource.attributes.find((a: any) => a.key === 'service.name')?.value.stringValue;
          return rs.scopeSpans.flatMap((ss: any) => ss.spans.map((s: any) => ({ service, ...s })));
        }),
      );

  const request = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${env.PORT}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': key, ...headers },
      body: JSON.stringify(body),
    });
    return readChecked('POST', path, res);
  };

  it("follows one call under the ATS's trace id: API, workflow start, workflow, activities, webhook", async () => {
    // A receiver whose URL holds a credential in its query, as some ATSs' do.
    await request('/api/public/v1/webhooks', { url: `${receiver.url}/hooks?token=query-secret-7`, events: ['call.completed'] });
    await request('/api/public/v1/campaigns', { ats_job_id: 'job-traced', name: 'Traced' });
    const traceId = randomBytes(16).toString('hex');
    const parent = randomBytes(8).toString('hex');
    const res = await request(
      '/api/public/v1/call/initiate',
      {
        ats_job_id: 'job-traced',
        instructions: 'Ask {{candidate_first_name}} about availability.',
        candidates: [{ id: 't1', name: 'Tia Trace', email: 'tia@example.com', phone: '+14155550171' }],
      },
      { traceparent: `00-${traceId}-${parent}-01`, 'x-request-id': 'ats-req-42', baggage: 'user.id=ats-user-9,tenant=acme' },
    );
    expect(res.headers.get('x-request-id')).toBe('ats-req-42');

    const expected = [
      'hiring-api POST /api/public/v1/call/initiate',
      // The API's span leads to the workflow's start, which leads to the rest.
      'hiring-api StartWorkflow:callWorkflow',
      'hiring-worker RunWorkflow:callWorkflow',
      'hiring-worker RunActivity:dial',
      'hiring-worker RunActivity:completeCall',
      'hiring-worker SignalWithStartWorkflow:webhookDeliveryWorkflow',
      'hiring-worker RunActivity:deliverEvents',
      // The webhook's delivery: an outbound HTTP call to the receiver.
      'hiring-worker POST',
    ];
    /**
     * Spans whose parent is neither in the trace nor the ATS's own span: none, once all are exported, but for
     * those under the delivery workflow's run, whose span is exported when that workflow ends (after a
     * minute with nothing to deliver).
     */
    const orphans = (found: ExportedSpan[]) => {
      const ids = new Set(found.map((s) => s.spanId));
      return found
        .filter((s) => s.parentSpanId && s.parentSpanId !== parent && !ids.has(s.parentSpanId))
        .map((s) => s.name)
        .filter((name) => name !== 'StartActivity:deliverEvents');
    };
    const traced = await waitFor(
      async () => spans().filter((s) => s.traceId === traceId),
      (found) => expected.every((n) => found.some((s) => `${s.service} ${s.name}` === n)) && orphans(found).length === 0,
      60_000,
    );
    expect(traced.map((s) => `${s.service} ${s.name}`)).toEqual(expect.arrayContaining(expected));
    expect(orphans(traced)).toEqual([]);
    const server = traced.find((s) => s.service === 'hiring-api' && s.name === 'POST /api/public/v1/call/initiate')!;
    expect(server.parentSpanId).toBe(parent);
    // The outbound span keeps the URL without its query, and no baggage went on to the receiver.
    const outbound = traced.find((s) => s.service === 'hiring-worker' && s.name === 'POST')!;
    const urls = (outbound.attributes ?? []).filter((a) => /url|target/.test(a.key)).map((a) => a.value.stringValue);
    expect(urls).toContain(`${receiver.url}/hooks`);
    expect(JSON.stringify(outbound)).not.toContain('query-secret-7');
    const delivered = receiver.requests.filter((r) => r.path.startsWith('/hooks'));
    expect(delivered.length).toBeGreaterThan(0);
    for (const r of delivered) {
      expect(r.headers.baggage).toBeUndefined();
      expect(r.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-`));
    }
    expect(JSON.stringify(collector.requests.map((r) => r.body))).not.toContain('ats-user-9');

    const lines = readFileSync(join(logDir, 'api.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"request_id":"ats-req-42"'))
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatchObject({ trace_id: traceId, span_id: server.spanId });
  }, 120_000);

  it('takes a trace context only on a keyed route with a key that authenticates; pages and callbacks start their own', async () => {
    const given = () => ({ traceId: randomBytes(16).toString('hex'), parent: randomBytes(8).toString('hex') });
    const base = `http://127.0.0.1:${env.PORT}`;
    const page = given();
    await fetch(`${base}/jobs/prj_nope`, { headers: { traceparent: `00-${page.traceId}-${page.parent}-01` } });
    const callback = given();
    await fetch(`${base}/api/public/v1/providers/vapi/events`, {
      method: 'POST',
      headers: { traceparent: `00-${callback.traceId}-${callback.parent}-01`, 'content-type': 'application/json' },
      body: '{}',
    });
    const badKey = given();
    const refused = await fetch(`${base}/api/public/v1/calls`, {
      headers: { traceparent: `00-${badKey.traceId}-${badKey.parent}-01`, 'x-service-api-key': 'hk_' + 'x'.repeat(43) },
    });
    expect(refused.status).toBe(401);
    const keyed = given();
    expect(
      (
        await fetch(`${base}/api/public/v1/calls`, {
          headers: { traceparent: `00-${keyed.traceId}-${keyed.parent}-01`, 'x-service-api-key': key },
        })
      ).status,
    ).toBe(200);

    const serverSpans = await waitFor(
      async () => spans().filter((s) => s.service === 'hiring-api' && /^(GET|POST) /.test(s.name)),
      (found) => found.some((s) => s.traceId === keyed.traceId) && found.length >= 4,
      30_000,
    );
    expect(serverSpans.find((s) => s.traceId === keyed.traceId)?.parentSpanId).toBe(keyed.parent);
    for (const refusedContext of [page, callback, badKey]) {
      expect(serverSpans.filter((s) => s.traceId === refusedContext.traceId || s.parentSpanId === refusedContext.parent)).toEqual([]);
    }
    expect(serverSpans.some((s) => s.name === 'GET unmatched' || s.name.startsWith('GET /jobs'))).toBe(true);
  }, 60_000);
});
