import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDatabase, startTemporalDevServer, type RunningService } from '../scripts/services';

/**
 * Starts one real database and one Temporal dev server for the whole run; test files isolate themselves
 * with their own database name and task queue. TEMPORAL_ADDRESS / MONGODB_URI point at external servers instead.
 */
export default async function globalSetup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hiring-test-'));
  const services: RunningService[] = [];
  const db = await startDatabase({ dataDir: join(dir, 'db'), logDir: dir });
  services.push(db);
  process.env.TEST_MONGODB_URI = db.uri;
  if (process.env.TEMPORAL_ADDRESS) {
    process.env.TEST_TEMPORAL_ADDRESS = process.env.TEMPORAL_ADDRESS;
  } else {
    const temporal = await startTemporalDevServer({ headless: true, logDir: dir });
    services.push(temporal);
    process.env.TEST_TEMPORAL_ADDRESS = temporal.address;
  }
  process.env.TEST_SERVICES_DIR = dir;
  (globalThis as { __services?: RunningService[] }).__services = services;
  writeFileSync(join(dir, 'services.json'), JSON.stringify({ mongodb: db.uri, temporal: process.env.TEST_TEMPORAL_ADDRESS }));
}
