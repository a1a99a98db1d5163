import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { loadConfig } from '../../infra/config';
import { connectDatabase, type Database } from '../../infra/database';
import { connectClient } from '../../infra/temporal';
import { writeWorkflowBundle } from '../bundle-workflows';
import { adminStores } from '../../composition/admin-stores';
import { freePort, startDatabase, startTemporalDevServer, type RunningService } from '../services';
import { startServiceProcess, type ServiceProcess } from './processes';

/** One stack for the whole benchmark run: database, Temporal dev server, API and worker processes. */
export interface BenchStack {
  flavour: string;
  env: Record<string, string>;
  store: Database;
  temporal: Client;
  api: ServiceProcess;
  worker: ServiceProcess;
  apiUrl: string;
  workspaceId: string;
  key: string;
  logDir: string;
  /** FerretDB's own metrics (the commands it answered), or null on another database. */
  dbMetricsUrl: string | null;
  /** The commands this benchmark's own connection sent (its polling), by command name, to tell them apart. */
  ownCommands: Map<string, number>;
  /** POSTs JSON with the workspace's key; anything but 200 or 201 is an error. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<any>;
  stop(): Promise<void>;
}

export async function startBenchStack(dir: string): Promise<BenchStack> {
  const logDir = join(dir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const servers: RunningService[] = [];
  const db = await startDatabase({ dataDir: join(dir, 'db'), logDir, metrics: true });
  servers.push(db);
  const temporalServer = process.env.TEMPORAL_ADDRESS ? null : await startTemporalDevServer({ headless: true, logDir });
  if (temporalServer) servers.push(temporalServer);
  const port = await freePort();
  // The workflows bundled ahead, as `npm run build` does for production: the worker never runs webpack.
  const bundle = join(dir, 'workflow-bundle.js');
  await writeWorkflowBundle(bundle);
  const env = {
    WORKFLOW_BUNDLE_PATH: bundle,
    PORT: String(port),
    HOST: '127.0.0.1',
    MONGODB_URI: db.uri,
    MONGODB_DB: `bench_${Date.now()}`,
    TEMPORAL_ADDRESS: temporalServer?.address ?? process.env.TEMPORAL_ADDRESS!,
    TEMPORAL_TASK_QUEUE: `bench-${Date.now()}`,
    SIMULATOR_CALL_SECONDS: '0',
    // The webhook rows' receiver listens on loopback.
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // The bench measures throughput, not the abuse limits: one workspace sends far more than a day's worth.
    CANDIDATES_PER_HOUR: '10000000',
    EMAILS_PER_DAY: '10000000',
    LIST_READS_PER_MINUTE: '100000',
    PAGE_REQUESTS_PER_MINUTE_PER_IP: '1000000',
    PAGE_REQUESTS_PER_MINUTE_PER_LINK: '100000',
  };
  const config = loadConfig({ ...process.env, ...env });
  // BENCH_CPU_PROFILE=<dir>: the API and the worker write V8 CPU profiles there when they stop (docs/benchmarks.md).
  const profile = process.env.BENCH_CPU_PROFILE;
  const nodeArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const worker = await startServiceProcess('worker', env, join(logDir, 'worker.log'), { nodeArgs });
  const api = await startServiceProcess('api', env, join(logDir, 'api.log'), { nodeArgs });
  const store = await connectDatabase(config.MONGODB_URI, config.MONGODB_DB, { monitorCommands: true });
  const ownCommands = new Map<string, number>();
  store.client.on('commandStarted', (e) => ownCommands.set(e.commandName, (ownCommands.get(e.commandName) ?? 0) + 1));
  const temporal = await connectClient(config);
  const ws = await adminStores(store).workspaces.create({
    name: 'Bench',
    company: 'Bench Inc',
    senderFirstName: 'Ada',
    senderLastName: 'Lovelace',
  });
  // Each request's 50 calls are dialled at once, as the rows have always measured: the default cap of 10 would
  // time the wait for a slot, not the service.
  await adminStores(store).workspaces.updateSettings(ws.workspace_id, { max_concurrent_calls: 50 });
  const apiUrl = `http://127.0.0.1:${port}`;
  return {
    flavour: db.flavour,
    env,
    store,
    temporal,
    api,
    worker,
    apiUrl,
    workspaceId: ws.workspace_id,
    key: ws.api_key,
    logDir,
    dbMetricsUrl: db.metricsUrl ?? null,
    ownCommands,
    async post(path, body, headers = { 'x-service-api-key': ws.api_key }) {
      const res = await fetch(apiUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      if (res.status !== 200 && res.status !== 201) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      return res.json();
    },
    async stop() {
      await api.stop();
      await worker.stop();
      await temporal.connection.close();
      await store.db.dropDatabase().catch(() => undefined);
      await store.close();
      for (const s of servers.reverse()) await s.stop().catch(() => undefined);
    },
  };
}

/**
 * Waits until `done` holds for every id, reading one record at a time by exact `_id` and moving on when it
 * holds, so the waiting itself adds almost no load to the database it measures.
 */
export async function untilEach(ids: string[], done: (id: string) => Promise<boolean>, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < ids.length;) {
    if (await done(ids[i])) i++;
    else if (Date.now() > deadline) throw new Error(`still waiting for ${ids[i]} after ${timeoutMs} ms (${i} of ${ids.length} done)`);
    else await new Promise((r) => setTimeout(r, 20));
  }
}
