import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDatabase, startTemporalDevServer, type RunningService } from '../scripts/services';
import { writeWorkflowBundle } from '../scripts/bundle-workflows';
import { transpileSources } from '../scripts/transpile';

/**
 * Starts one real database and one Temporal dev server for the whole run; test files isolate themselves
 * with their own database name and task queue. TEMPORAL_ADDRESS / MONGODB_URI point at external servers instead.
 *
 * It also bundles the workflows once for the run, plain and with tracing's interceptors, while the servers
 * start: jest gives each test file a module registry of its own, so a bundle kept in a module variable was
 * built again (webpack, about 2 s of CPU) in each of the 45 files that start a worker. Test workers load
 * the files (TEST_WORKFLOW_BUNDLE, TEST_WORKFLOW_BUNDLE_TRACED), and the service processes the tests start
 * are given them as WORKFLOW_BUNDLE_PATH, as a production worker loads the bundle `npm run build` wrote.
 * And it transpiles the sources once (scripts/transpile.ts) for the service processes and admin commands the
 * tests start (TEST_SERVICE_MAIN, TEST_ADMIN_CLI): each then starts without tsx's loader.
 */
export default async function globalSetup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hiring-test-'));
  const services: RunningService[] = [];
  const plain = join(dir, 'workflow-bundle.js');
  const traced = join(dir, 'workflow-bundle-traced.js');
  const built = Promise.all([
    writeWorkflowBundle(plain).then(() => writeWorkflowBundle(traced, true)),
    transpileSources(join(dir, 'build')),
  ]);
  // A failed build is thrown below, once the servers started beside it are stopped again.
  built.catch(() => undefined);
  const db = await startDatabase({ dataDir: join(dir, 'db'), logDir: dir });
  services.push(db);
  process.env.TEST_MONGODB_URI = db.uri;
  (globalThis as { __services?: RunningService[] }).__services = services;
  if (process.env.TEMPORAL_ADDRESS) {
    process.env.TEST_TEMPORAL_ADDRESS = process.env.TEMPORAL_ADDRESS;
  } else {
    const temporal = await startTemporalDevServer({ headless: true, logDir: dir });
    services.push(temporal);
    process.env.TEST_TEMPORAL_ADDRESS = temporal.address;
  }
  const [, transpiled] = await built.catch(async (err: unknown) => {
    for (const s of services.reverse()) await s.stop();
    throw err;
  });
  process.env.TEST_WORKFLOW_BUNDLE = plain;
  process.env.TEST_WORKFLOW_BUNDLE_TRACED = traced;
  process.env.TEST_SERVICE_MAIN = transpiled.main;
  process.env.TEST_ADMIN_CLI = transpiled.admin;
  process.env.TEST_SERVICES_DIR = dir;
  writeFileSync(join(dir, 'services.json'), JSON.stringify({ mongodb: db.uri, temporal: process.env.TEST_TEMPORAL_ADDRESS }));
}
