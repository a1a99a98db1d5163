import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { connectDatabase, type Database } from '../../infra/database';
import { adminStores } from '../../composition/admin-stores';
import { freePort, startDatabase, startTemporalDevServer, type RunningService } from '../../scripts/services';
import { startServiceProcess, type ServiceProcess } from '../../scripts/bench/processes';
import { startHttpStub, type HttpStub, type RecordedRequest, type StubReply } from '../helpers/http-stub';
import {
  messageAccepted,
  templateListReply,
  VAPI_PHONE_NUMBER_ID,
  WA_BUSINESS_ACCOUNT_ID,
  WA_PHONE_NUMBER_ID,
  WA_VERSION,
} from '../helpers/provider-wire';
import { startFakeVapi, type FakeVapi } from './fake-vapi';
import { writeWorkflowBundle } from '../../scripts/bundle-workflows';
import { transpileSources } from '../../scripts/transpile';

export const VAPI_SECRET = 'chaos-vapi-secret';
export const WA_APP_SECRET = 'chaos-app-secret';

export interface Response {
  status: number;
  body: any;
  ms: number;
  contentType: string;
  /** The API's id of the request (its x-request-id), which its log lines carry. */
  requestId?: string;
}

/** The service's code as its processes start it: the workflows bundled, the sources transpiled. */
export interface ServiceCode {
  bundle: string;
  main: string;
}

/**
 * Bundles the workflows and transpiles the sources into `dir`, once for every stack of a run, while their
 * servers start: each of the suite's process starts (several are restarts after a kill) then skips webpack
 * and tsx's loader, as a production process does, and the four stacks no longer build the same code four
 * times (webpack alone took about 3 s of CPU each, in the start of every stack at once).
 */
export function serviceCode(dir: string): Promise<ServiceCode> {
  const bundle = join(dir, 'workflow-bundle.js');
  const built = Promise.all([writeWorkflowBundle(bundle), transpileSources(join(dir, 'build'))]).then(([, { main }]) => ({ bundle, main }));
  built.catch(() => undefined);
  return built;
}

/**
 * Every part of the service as its own process, on loopback: FerretDB and the Temporal dev server (both
 * restartable on the same port and files), the API and the worker (ROLE=api, ROLE=worker), and local Vapi
 * and WhatsApp Cloud servers speaking the providers' wire formats.
 */
export class ChaosStack {
  api!: ServiceProcess;
  worker!: ServiceProcess;
  db!: RunningService;
  temporal!: RunningService;
  store!: Database;
  vapi!: FakeVapi;
  graph!: HttpStub;
  /** The next template the graph is sent, held unanswered while armed (holdNextTemplate). */
  private holdArmed: ((req: RecordedRequest) => StubReply) | null = null;
  key!: string;
  env!: Record<string, string>;
  private n = 0;
  /** The transpiled main.js the service processes start from. */
  private main?: string;
  /**
   * The servers' ports: picked on their first start, where a start whose port another process took first is
   * tried on another (scripts/services.ts), then kept, as a restart after an outage must come back on it.
   */
  private dbPort?: number;
  private temporalPort?: number;

  /** `code`: the service's code built for its processes, one build shared by the stacks of a run (serviceCode). */
  constructor(
    private readonly dir: string,
    private readonly code: Promise<ServiceCode>,
  ) {}

  get apiUrl(): string {
    return `http://127.0.0.1:${this.env.PORT}`;
  }

  async start(): Promise<void> {
    mkdirSync(join(this.dir, 'logs'), { recursive: true });
    await this.startDb();
    await this.startTemporal();
    const { bundle, main } = await this.code;
    this.main = main;
    this.vapi = await startFakeVapi({ callMs: 1_500 });
    this.graph = await startHttpStub((req) => {
      if (req.method === 'GET') return templateListReply(req);
      const hold = this.holdArmed;
      this.holdArmed = null;
      return hold ? hold(req) : messageAccepted(req);
    });
    const port = await freePort();
    this.env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      MONGODB_URI: `mongodb://127.0.0.1:${this.dbPort}`,
      MONGODB_DB: 'chaos',
      TEMPORAL_ADDRESS: `127.0.0.1:${this.temporalPort}`,
      TEMPORAL_TASK_QUEUE: 'chaos',
      VOICE_PROVIDER: 'vapi',
      VAPI_API_KEY: 'chaos-vapi-key',
      VAPI_BASE_URL: this.vapi.url,
      VAPI_PHONE_NUMBER_ID,
      VAPI_WEBHOOK_SECRET: VAPI_SECRET,
      VAPI_MAX_CALL_SECONDS: '10',
      VAPI_REPORT_GRACE_SECONDS: '20',
      VAPI_TIMEOUT_MS: '5000',
      WHATSAPP_PROVIDER: 'cloud',
      WHATSAPP_ACCESS_TOKEN: 'chaos-token',
      WHATSAPP_BASE_URL: this.graph.url,
      WHATSAPP_API_VERSION: WA_VERSION,
      WHATSAPP_PHONE_NUMBER_ID: WA_PHONE_NUMBER_ID,
      WHATSAPP_BUSINESS_ACCOUNT_ID: WA_BUSINESS_ACCOUNT_ID,
      WHATSAPP_APP_SECRET: WA_APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'chaos-verify',
      AI_RATE_LIMIT: '5',
      SHUTDOWN_TIMEOUT_MS: '2000',
      // The webhook receiver of scenario (g) listens on loopback.
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // Keeps the database driver's heartbeat and pool events in the logs, for reading how an outage was survived.
      LOG_LEVEL: 'debug',
      WORKFLOW_BUNDLE_PATH: bundle,
    };
    this.store = await connectDatabase(this.env.MONGODB_URI, this.env.MONGODB_DB);
    this.key = (
      await adminStores(this.store).workspaces.create({
        name: 'Chaos',
        company: 'Chaos Inc',
        senderFirstName: 'Ada',
        senderLastName: 'Lovelace',
      })
    ).api_key;
    this.worker = await this.startProcess('worker');
    this.api = await this.startProcess('api');
  }

  async startProcess(role: 'api' | 'worker', extra: Record<string, string> = {}): Promise<ServiceProcess> {
    return startServiceProcess(role, { ...this.env, ...extra }, join(this.dir, 'logs', `${role}-${++this.n}.log`), { main: this.main });
  }

  logFile(role: 'api' | 'worker'): string {
    return join(this.dir, 'logs', `${role}-${this.n}.log`);
  }

  async startDb(): Promise<void> {
    const db = await startDatabase({
      dataDir: join(this.dir, 'db'),
      logDir: join(this.dir, 'logs'),
      port: this.dbPort,
      useExternal: false,
    });
    this.dbPort = Number(new URL(db.uri).port);
    this.db = db;
  }

  async startTemporal(): Promise<void> {
    const temporal = await startTemporalDevServer({
      port: this.temporalPort,
      headless: true,
      dbFile: join(this.dir, 'temporal.db'),
      logDir: join(this.dir, 'logs'),
    });
    this.temporalPort = Number(temporal.address.split(':').pop());
    this.temporal = temporal;
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const started = performance.now();
    try {
      const res = await fetch(this.apiUrl + path, {
        method,
        headers: { 'x-service-api-key': this.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON: kept as text, and the checks say so */
      }
      const requestId = res.headers.get('x-request-id') ?? undefined;
      return {
        status: res.status,
        body: parsed,
        ms: performance.now() - started,
        contentType: res.headers.get('content-type') ?? '',
        requestId,
      };
    } catch (err) {
      return { status: 0, body: String(err), ms: performance.now() - started, contentType: '' };
    }
  }

  /**
   * Holds the next template the graph is sent without an answer until `release` (scenario (a) kills the worker
   * while it waits, mid-send): `held` settles with that request once it arrives.
   */
  holdNextTemplate(): { held: Promise<RecordedRequest>; release: () => void } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = new Promise<RecordedRequest>((resolve) => {
      this.holdArmed = (req) => {
        resolve(req);
        return { held: released.then(() => messageAccepted(req)) };
      };
    });
    return {
      held,
      release: () => {
        this.holdArmed = null;
        release();
      },
    };
  }

  async stop(): Promise<void> {
    await this.api?.kill();
    await this.worker?.kill();
    await this.store?.close().catch(() => undefined);
    await this.vapi?.close();
    await this.graph?.close();
    await this.temporal?.stop();
    await this.db?.stop();
  }
}
