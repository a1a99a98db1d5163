import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { searchAttributeKeys } from '../workflows/search-attributes';
import { freePort } from '../infra/free-port';
import { holdsListeningPort } from './port-owner';

export { freePort };

/**
 * Starts the real servers the project runs on, from the binaries scripts/provision.sh caches:
 * a MongoDB-wire database (MONGODB_URI, else mongod on PATH, else FerretDB on SQLite) and the Temporal
 * dev server with its Web UI. Used by `npm run dev` and by the test suite's global setup.
 */

/** Cache folder and binary paths, read from scripts/lib.sh so the pinned versions live in one place. */
function provisionedPaths(): { cacheDir: string; temporalCli: string; ferretdb: string; schemathesisVenv: string; chromium: string } {
  const res = spawnSync(
    'bash',
    [
      '-c',
      '. "$1" && printf "%s\\n" "$SERVICES_CACHE_DIR" "$TEMPORAL_CLI_BIN" "$FERRETDB_BIN" "$SCHEMATHESIS_VENV" "$CHROMIUM_BIN"',
      'lib.sh',
      join(__dirname, 'lib.sh'),
    ],
    {
      encoding: 'utf8',
    },
  );
  const [cacheDir, temporalCli, ferretdb, schemathesisVenv, chromium] = res.stdout.split('\n');
  if (res.status !== 0 || !ferretdb) throw new Error(`could not read scripts/lib.sh: ${res.stderr || res.error?.message}`);
  return { cacheDir, temporalCli, ferretdb, schemathesisVenv, chromium };
}

let paths: ReturnType<typeof provisionedPaths> | undefined;
/** Read on first use, so importing this module (the tests do, for TEST_SERVER_LAUNCHER) runs no shell. */
export function provisioned(): ReturnType<typeof provisionedPaths> {
  paths ??= provisionedPaths();
  return paths;
}
export const TEST_SERVER_LAUNCHER = join(__dirname, 'temporal-test-server.sh');

/**
 * How the local stack's SQLite files (FerretDB's, and the Temporal dev server's in file mode) reach the disk:
 * both in WAL mode, `normal` (the default) syncing the log at checkpoints, `full` at every commit
 * (SQLITE_SYNCHRONOUS=full). A crashed or killed process loses nothing either way: what it committed is in
 * the log, which the operating system holds. A power cut or a kernel crash may lose the last commits under
 * `normal`, answered requests among them. It cut FerretDB's CPU per completed call from 22 to 16 core-ms
 * (docs/benchmarks.md). A deployment runs MongoDB and Temporal on their own databases (docker-compose.yml),
 * which this does not touch.
 */
function sqliteSynchronous(): 'normal' | 'full' {
  const v = (process.env.SQLITE_SYNCHRONOUS ?? 'normal').toLowerCase();
  if (v !== 'normal' && v !== 'full') throw new Error(`SQLITE_SYNCHRONOUS must be normal or full, not ${JSON.stringify(v)}`);
  return v;
}

/**
 * A test run's Go servers (FerretDB, the Temporal dev server) collect garbage once their heap has grown by
 * 400% over what the last collection kept, against Go's 100%, unless GOGC is set already: the suite is bound
 * by two cores' CPU, not by memory. Eight stack files took the two servers 20.2 to 23.6 core-s instead of
 * 25.4 to 28.4, at a largest resident size of 527 MB instead of 265 (Temporal) and 75 MB instead of 59 (each
 * FerretDB) (docs/test-speed-log.md). The test run's processes inherit it from the one that calls this; the
 * dev stack and the benchmark keep Go's default, as a deployment's servers do.
 */
export function collectGarbageLessForTests(): void {
  process.env.GOGC ??= '400';
}

export interface RunningService {
  name: string;
  stop(): Promise<void>;
}

async function waitForPort(port: number, child: ChildProcess, name: string, logFile: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}; see ${logFile}`);
    const open = await new Promise<boolean>((resolve) => {
      const sock = connect(port, '127.0.0.1', () => {
        sock.destroy();
        resolve(true);
      });
      sock.on('error', () => resolve(false));
    });
    // Open, and by this server: another process may have taken the port before it (scripts/port-owner.ts),
    // and then this one dies of "address already in use" in a moment, or never listens.
    if (open && holdsListeningPort(child.pid!, port) !== false) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not listen on port ${port} within ${timeoutMs} ms; see ${logFile}`);
}

/**
 * Starts a server on a port and waits until it listens. A free port is only free when it is picked: another
 * process (a parallel test's server, or the Temporal CLI's own pick of its HTTP and membership ports) can
 * bind it before the server does. So a start that dies with "address already in use" is tried again, on
 * fresh ports unless the caller fixed one.
 */
export async function startListening(
  name: string,
  command: string,
  argsFor: (port: number) => Promise<string[]>,
  logFile: string,
  fixedPort: number | undefined,
): Promise<{ port: number; service: RunningService }> {
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await freePort());
    const logStart = existsSync(logFile) ? statSync(logFile).size : 0;
    const { child, service } = startProcess(name, command, await argsFor(port), logFile);
    try {
      await waitForPort(port, child, name, logFile);
      return { port, service };
    } catch (err) {
      await service.stop();
      const clash = /address already in use/.test(readFileSync(logFile).subarray(logStart).toString());
      if (!clash || attempt === 3) throw err;
    }
  }
}

function startProcess(name: string, command: string, args: string[], logFile: string): { child: ChildProcess; service: RunningService } {
  const out = openSync(logFile, 'a');
  const child = spawn(command, args, { stdio: ['ignore', out, out] });
  return { child, service: { name, stop: () => stopProcess(child, 5_000) } };
}

/** SIGTERM, then SIGKILL if the process has not exited after `graceMs`. */
export function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function requireBinary(path: string, what: string, alternatives: string): void {
  if (existsSync(path)) return;
  throw new Error(
    `${what} is not provisioned at ${path}. Run 'bash scripts/provision.sh' (needs Go), ${alternatives}, or use 'docker compose up'.`,
  );
}

export interface TemporalDevServer extends RunningService {
  address: string;
  uiUrl: string | null;
}

export async function startTemporalDevServer(opts: {
  port?: number;
  uiPort?: number;
  headless?: boolean;
  dbFile?: string;
  logDir: string;
}): Promise<TemporalDevServer> {
  requireBinary(provisioned().temporalCli, 'The Temporal CLI', 'or set TEMPORAL_ADDRESS to an existing Temporal cluster');
  mkdirSync(opts.logDir, { recursive: true });
  let uiPort = opts.uiPort;
  const argsFor = async (port: number): Promise<string[]> => {
    if (!opts.headless && opts.uiPort === undefined) uiPort = await freePort();
    const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn'];
    args.push(...(opts.headless ? ['--headless'] : ['--ui-port', String(uiPort)]));
    if (opts.dbFile) {
      args.push('--db-filename', opts.dbFile);
      args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', `synchronous=${sqliteSynchronous()}`);
    }
    for (const key of searchAttributeKeys) args.push('--search-attribute', `${key.name}=Keyword`);
    // A queue here has one worker: one partition instead of the server's default of four. 200 workflows of an
    // invitation's shape (the bench's engine floor) ended in 3.6 s instead of 5.5 to 5.8; the CPU per
    // workflow did not move (docs/benchmarks.md).
    for (const key of ['matching.numTaskqueueReadPartitions', 'matching.numTaskqueueWritePartitions']) {
      args.push('--dynamic-config-value', `${key}=1`);
    }
    return args;
  };
  const logFile = join(opts.logDir, 'temporal.log');
  const { port, service } = await startListening('Temporal dev server', provisioned().temporalCli, argsFor, logFile, opts.port);
  return {
    ...service,
    address: `127.0.0.1:${port}`,
    uiUrl: opts.headless ? null : `http://127.0.0.1:${uiPort}`,
  };
}

export interface DatabaseServer extends RunningService {
  uri: string;
  /** Which server runs: 'external' (MONGODB_URI), 'mongod' or 'ferretdb'. */
  flavour: 'external' | 'mongod' | 'ferretdb';
  /** FerretDB's own Prometheus metrics (its debug handler), when asked for with `metrics: true`. */
  metricsUrl?: string;
}

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

export async function startDatabase(opts: {
  dataDir: string;
  logDir: string;
  port?: number;
  useExternal?: boolean;
  /** FerretDB only: serve its metrics (the commands it answered), as the benchmark counts them. */
  metrics?: boolean;
}): Promise<DatabaseServer> {
  if (opts.useExternal !== false && process.env.MONGODB_URI) {
    return { name: 'mongodb', uri: process.env.MONGODB_URI, flavour: 'external', stop: async () => {} };
  }
  mkdirSync(opts.dataDir, { recursive: true });
  mkdirSync(opts.logDir, { recursive: true });
  if (onPath('mongod')) {
    const logFile = join(opts.logDir, 'mongod.log');
    const { port, service } = await startListening(
      'mongod',
      'mongod',
      async (p) => ['--dbpath', opts.dataDir, '--port', String(p), '--bind_ip', '127.0.0.1'],
      logFile,
      opts.port,
    );
    return { ...service, uri: `mongodb://127.0.0.1:${port}`, flavour: 'mongod' };
  }
  requireBinary(provisioned().ferretdb, 'FerretDB', 'or set MONGODB_URI to a MongoDB server, or put mongod on PATH');
  const logFile = join(opts.logDir, 'ferretdb.log');
  // FerretDB's default 10 s lock wait is too short under many concurrent writers: measured with 80
  // connections upserting at once, 1 to 4 of 3,600 writes failed with SQLITE_BUSY; with 60 s, none did.
  const debugPort = opts.metrics ? await freePort() : null;
  const argsFor = async (port: number): Promise<string[]> => [
    '--handler=sqlite',
    `--sqlite-url=file:${opts.dataDir.replace(/\/?$/, '/')}?_pragma=busy_timeout(60000)&_pragma=synchronous(${sqliteSynchronous()})`,
    `--listen-addr=127.0.0.1:${port}`,
    `--state-dir=${opts.dataDir}`,
    `--debug-addr=${debugPort ? `127.0.0.1:${debugPort}` : '-'}`,
    '--telemetry=disable',
    '--log-level=warn',
  ];
  const { port, service } = await startListening('FerretDB', provisioned().ferretdb, argsFor, logFile, opts.port);
  const metricsUrl = debugPort ? `http://127.0.0.1:${debugPort}/debug/metrics` : undefined;
  return { ...service, uri: `mongodb://127.0.0.1:${port}`, flavour: 'ferretdb', metricsUrl };
}
