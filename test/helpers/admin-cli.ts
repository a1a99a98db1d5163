import { execFile } from 'node:child_process';
import { join } from 'node:path';

export interface AdminRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the admin CLI (scripts/admin.ts) as a process of its own with only `env` (and PATH), the way an
 * operator runs it, without blocking the test's own event loop (a stack may run in it). It runs from the
 * sources the run transpiled once (test/global-setup.ts), so it starts without tsx's loader.
 */
export function runAdmin(env: Record<string, string | undefined>, ...args: string[]): Promise<AdminRun> {
  const admin = process.env.TEST_ADMIN_CLI;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...(admin ? [admin] : ['--import', 'tsx', join(__dirname, '../../scripts/admin.ts')]), ...args],
      { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 30_000 },
      (err, stdout, stderr) => {
        const status = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ status, stdout: stdout.trim(), stderr });
      },
    );
  });
}
