import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A scratch directory for what a test keeps on disk while it runs (a database's files, a server's logs, a
 * browser's fake microphone). In a jest run it lies inside the run's own directory (test/global-setup.ts),
 * which the run's teardown removes once every test passed, and keeps, with the servers' logs, when one
 * failed; outside one (the bench) under the system's, for its caller to remove.
 */
export function scratchDir(prefix: string): string {
  return mkdtempSync(join(process.env.TEST_SERVICES_DIR ?? tmpdir(), `${prefix}-`));
}
