import { rmSync } from 'node:fs';
import type { RunningService } from '../scripts/services';

/**
 * Stops the run's servers, then removes the run's directory (test/global-setup.ts) when every test passed
 * (test/setup/run-outcome-reporter.js): a run leaves nothing behind in the system's temporary folder. When a
 * test failed, the directory stays with the servers' and service processes' logs, and the last line says where.
 */
export default async function globalTeardown(): Promise<void> {
  const state = globalThis as { __services?: RunningService[]; __testRunPassed?: boolean };
  for (const s of (state.__services ?? []).reverse()) await s.stop();
  const dir = process.env.TEST_SERVICES_DIR;
  if (!dir) return;
  if (state.__testRunPassed) rmSync(dir, { recursive: true, force: true });
  else console.log(`\nThe run's servers' and processes' logs are kept in ${dir}`);
}
