import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, stopProcess } from '../services';

/**
 * The service as production runs it: the API and the worker each in a process of its own (ROLE=api,
 * ROLE=worker), so the client that measures never shares an event loop with them and the worker's resident
 * memory can be read on its own.
 */
export interface ServiceProcess {
  role: 'api' | 'worker';
  pid: number;
  /** Its `GET /metrics`; null when its environment says METRICS_PORT=0. */
  metricsUrl: string | null;
  /** Resident memory in bytes, from /proc. */
  rss(): number;
  stop(): Promise<void>;
  /** SIGKILL: the process dies where it stands, as in a crash. */
  kill(): Promise<void>;
}

const MAIN = join(__dirname, '..', '..', 'main.ts');
const READY = { api: '"msg":"API listening"', worker: '"msg":"worker started"' } as const;

/**
 * Starts `main.ts` with tsx, or `opts.main`: the same sources transpiled beforehand (scripts/transpile.ts), which
 * start without tsx's loader, as the test suite and the chaos suite start theirs.
 */
export async function startServiceProcess(
  role: 'api' | 'worker',
  env: Record<string, string>,
  logFile: string,
  opts: { main?: string; nodeArgs?: string[] } = {},
): Promise<ServiceProcess> {
  const out = openSync(logFile, 'a');
  for (let attempt = 1; ; attempt++) {
    // Metrics on, as in production, each process on a port of its own unless the caller chose.
    const metricsPort = env.METRICS_PORT ?? String(await freePort());
    const logStart = statSync(logFile).size;
    // nodeArgs: Node's own options, such as --cpu-prof, which NODE_OPTIONS does not take.
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...(opts.main ? [opts.main] : ['--import', 'tsx', MAIN])], {
      env: { ...process.env, LOG_LEVEL: 'info', ...env, METRICS_PORT: metricsPort, ROLE: role },
      stdio: ['ignore', out, out],
    });
    try {
      await waitForLine(child, logFile, logStart, READY[role], 120_000);
    } catch (err) {
      // A port picked here is free only when picked: another process (a Temporal server picks its own ports)
      // can bind it first. The process then exits at start-up, and is started again on a fresh pick.
      const taken = readFileSync(logFile)
        .subarray(logStart)
        .toString()
        .includes(`EADDRINUSE: address already in use 127.0.0.1:${metricsPort}`);
      if (!taken || env.METRICS_PORT !== undefined || attempt === 3) throw err;
      continue;
    }
    return {
      role,
      pid: child.pid!,
      metricsUrl: metricsPort === '0' ? null : `http://127.0.0.1:${metricsPort}/metrics`,
      rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
      stop: () => stopProcess(child, 15_000),
      kill: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    };
  }
}

/** Waits for `marker` in what the process wrote to `logFile` after `from` (its earlier starts are before it). */
async function waitForLine(child: ChildProcess, logFile: string, from: number, marker: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!readFileSync(logFile).subarray(from).toString().includes(marker)) {
    if (child.exitCode !== null) throw new Error(`service exited with code ${child.exitCode}; see ${logFile}`);
    if (Date.now() > deadline) throw new Error(`service not ready within ${timeoutMs} ms; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
