import { randomBytes } from 'node:crypto';
import type { WorkflowBundlePath } from '@temporalio/worker';
import type { installTemporalRuntime } from '../../infra/temporal-runtime';
import type { Client } from '@temporalio/client';
import { loadConfig, type Config } from '../../infra/config';
import { createLogger } from '../../infra/logger';
import type { Database } from '../../infra/database';
import type { RunningApi } from '../../api/server';
import type { Stores } from '../../stores';
import type { RealtimeVoice } from '../../providers/realtime/port';
import { readChecked } from './api-contract';
import { send } from './http-client';
import { freePort } from '../../scripts/services';
import { startServiceProcess, type ServiceProcess } from '../../scripts/bench/processes';
import { serviceModules, type ServiceModules } from './service-modules';
import { LimitClock } from './limit-clock';

/**
 * The SDK's own logs only matter in tests when something is wrong. `install`: the installer of the SDK's copy
 * the worker runs on, the file's own (infra/temporal-runtime.ts, imported by the file that runs a worker of its
 * own) or a stack's modules' (startStack), a copy with a runtime of its own.
 */
export function quietTemporalRuntime(install: typeof installTemporalRuntime): void {
  install(createLogger(process.env.TEST_LOG_LEVEL ?? 'error'), { level: 'WARN', coreLevel: 'ERROR' });
}

/**
 * The workflows as test/global-setup.ts bundled them once for the run (`traced`: with tracing's workflow
 * interceptors), for a worker of a test's own; a stack's worker and the service processes use the plain one.
 */
export function workflowBundle(opts: { traced?: boolean } = {}): Promise<WorkflowBundlePath> {
  const codePath = opts.traced ? process.env.TEST_WORKFLOW_BUNDLE_TRACED : process.env.TEST_WORKFLOW_BUNDLE;
  if (!codePath) throw new Error('no workflow bundle: test/global-setup.ts writes it when jest starts');
  return Promise.resolve({ codePath });
}

/**
 * For a worker a test creates itself (spread first into `Worker.create`'s options): its workflows run on the
 * jest worker's own thread, as the SDK's replay workers run them, instead of a thread the worker starts, which
 * loaded the SDK's protobufs and the bundle again for each of the 68 workers the workflow tests create (measured
 * on the workflow tests: 98 and 112 core-s with threads, 87 and 91 without). The SDK's debug mode does that
 * and, by default, lifts its 5 s limit on one workflow activation; the limit is kept (`isolateExecutionTimeout`,
 * an option the SDK reads but does not type), so a workflow stuck in a loop still fails its test.
 */
export const WORKFLOWS_IN_THREAD = { debugMode: true, isolateExecutionTimeout: '5s' } as const;

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** The secret the tests' services key people's hashes with, as an operator gives one (stores/person-keys.ts). */
export const TEST_PERSON_HASH_SECRET = 'test-person-hash-secret-0123456789abcdef';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    MONGODB_URI: process.env.TEST_MONGODB_URI,
    MONGODB_DB: uniqueName('test'),
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: uniqueName('tq'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SUPPORT_EMAIL: 'help@hiring.test',
    PUBLIC_BASE_URL: 'https://hiring.test',
    // Receivers in tests listen on loopback.
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // Many services run side by side here: none takes the default metrics port.
    METRICS_PORT: '0',
    PERSON_HASH_SECRET: TEST_PERSON_HASH_SECRET,
    ...overrides,
  });
}

/** The environment of a service process (`node main.js` with ROLE=…) on the test servers, its database and queue its own. */
export async function serviceProcessEnv(dbPrefix: string): Promise<Record<string, string>> {
  return {
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    MONGODB_URI: process.env.TEST_MONGODB_URI!,
    MONGODB_DB: uniqueName(dbPrefix),
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS!,
    TEMPORAL_TASK_QUEUE: uniqueName('tq'),
    PUBLIC_BASE_URL: 'https://hiring.test',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    METRICS_PORT: '0',
    PERSON_HASH_SECRET: TEST_PERSON_HASH_SECRET,
    // The run's bundle (test/global-setup.ts), as a production worker loads the one `npm run build` wrote.
    WORKFLOW_BUNDLE_PATH: (await workflowBundle()).codePath,
  };
}

/**
 * A service process (`ROLE=api|worker`, as `npm start` runs one) started from the sources the run transpiled
 * once (test/global-setup.ts), so it starts without tsx's loader.
 */
export function startServiceFromBuild(role: 'api' | 'worker', env: Record<string, string>, logFile: string): Promise<ServiceProcess> {
  return startServiceProcess(role, env, logFile, { main: process.env.TEST_SERVICE_MAIN });
}

export interface Stack {
  config: Config;
  db: Database;
  /** The service's own stores (composition/stores.ts), to arrange and read a test's state through. */
  stores: Stores;
  temporal: Client;
  api: RunningApi;
  url: string;
  /**
   * The service's modules the stack runs on, the jest worker's (test/setup/service-modules-environment.js):
   * its metrics are counted there, and a second API beside it is built from them. What they return are that
   * realm's objects: `expect.any(Date)` does not match their dates, `toEqual(new Date(…))` does.
   */
  modules: ServiceModules;
  /** The time its limits count requests at: a test holds it inside one window for a burst (test/helpers/limit-clock.ts). */
  limits: LimitClock;
  newWorkspace(name?: string): Promise<{ id: string; key: string }>;
  request(
    method: string,
    path: string,
    opts?: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  stop(): Promise<void>;
}

export type { ServiceModules } from './service-modules';

/** The real API (and optionally the real worker) on its own database and task queue. */
export async function startStack(
  opts: { worker?: boolean; env?: Record<string, string>; now?: () => Date; realtime?: RealtimeVoice; limits?: LimitClock } = {},
): Promise<Stack> {
  // Stacks on one database that count one limit share their clock.
  const limits = opts.limits ?? new LimitClock();
  const modules = serviceModules();
  // Only a worker uses the native runtime; installed without one, the runtime would keep jest from exiting.
  if (opts.worker) quietTemporalRuntime(modules.runtime.installTemporalRuntime);
  const config = testConfig({ ROLE: opts.worker ? 'all' : 'api', SHUTDOWN_TIMEOUT_MS: '1000', ...opts.env });
  const logger = createLogger(config.LOG_LEVEL);
  const service = await modules.service.startService(config, logger, {
    port: 0,
    host: '127.0.0.1',
    keepRuntime: true,
    dropDatabaseOnStop: true,
    ...(opts.now ? { pages: { now: opts.now } } : {}),
    limitsClock: limits.now,
    ...(opts.realtime ? { realtime: opts.realtime } : {}),
    ...(opts.worker ? { workflowBundle: await workflowBundle() } : {}),
  });
  const { db, stores, temporal } = service;
  const api = service.api!;
  return {
    config,
    db,
    stores,
    temporal,
    api,
    url: api.url,
    modules,
    limits,
    async newWorkspace(name = 'Acme') {
      const ws = await stores.workspaces.create({ name, company: `${name} Inc`, senderFirstName: 'Ada', senderLastName: 'Lovelace' });
      return { id: ws.workspace_id, key: ws.api_key };
    },
    async request(method, path, { key, body, raw, headers = {} } = {}) {
      const res = await send(api.url + path, {
        method,
        headers: { 'content-type': 'application/json', ...(key ? { 'x-service-api-key': key } : {}), ...headers },
        body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      });
      return readChecked(method, path, res);
    },
    stop: () => service.stop(),
  };
}

/**
 * One more API process beside an in-process stack: its database, task queue and secrets, a port of its own and
 * `extra` over them, started from the run's transpiled sources; the caller stops it. For tests of what spans
 * processes (one conversation per interview), or of a process's own fate (it survives a provider's failure).
 */
export const apiProcessBeside = (stack: Stack, extra: Record<string, string>, logFile: string) =>
  processBeside('api', stack, extra, logFile);

/** A process of `role` beside an in-process stack, as apiProcessBeside: a worker, for a test that kills one. */
export async function processBeside(role: 'api' | 'worker', stack: Stack, extra: Record<string, string>, logFile: string) {
  const env: Record<string, string> = {
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    MONGODB_URI: stack.config.MONGODB_URI,
    MONGODB_DB: stack.config.MONGODB_DB,
    TEMPORAL_ADDRESS: stack.config.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: stack.config.TEMPORAL_TASK_QUEUE,
    PUBLIC_BASE_URL: stack.config.PUBLIC_BASE_URL,
    WEBHOOK_ALLOW_PRIVATE: String(stack.config.WEBHOOK_ALLOW_PRIVATE),
    METRICS_PORT: '0',
    PERSON_HASH_SECRET: TEST_PERSON_HASH_SECRET,
    WORKFLOW_BUNDLE_PATH: (await workflowBundle()).codePath,
    ...extra,
  };
  const process = await startServiceFromBuild(role, env, logFile);
  return Object.assign(process, { url: `http://127.0.0.1:${env.PORT}` });
}
