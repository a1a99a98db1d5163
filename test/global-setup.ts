import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  collectGarbageLessForTests,
  startDatabase,
  startTemporalDevServer,
  type DatabaseServer,
  type RunningService,
} from '../scripts/services';
import { writeWorkflowBundles } from '../scripts/bundle-workflows';
import { transpileSources } from '../scripts/transpile';

/**
 * Starts the real database servers (FerretDB: one per jest worker, below) and one Temporal dev server for the
 * whole run; test files isolate themselves with their own database name and task queue. TEMPORAL_ADDRESS /
 * MONGODB_URI point at external servers instead.
 *
 * It also bundles the workflows once for the run, plain and with tracing's interceptors, while the servers
 * start: jest gives each test file a module registry of its own, so a bundle kept in a module variable was
 * built again (webpack, about 2 s of CPU) in each of the 45 files that start a worker. Test workers load
 * the files (TEST_WORKFLOW_BUNDLE, TEST_WORKFLOW_BUNDLE_TRACED), and the service processes the tests start
 * are given them as WORKFLOW_BUNDLE_PATH, as a production worker loads the bundle `npm run build` wrote.
 * And it transpiles the sources once (scripts/transpile.ts) for the service processes and admin commands the
 * tests start (TEST_SERVICE_MAIN, TEST_ADMIN_CLI): each then starts without tsx's loader.
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  collectGarbageLessForTests();
  const dir = mkdtempSync(join(tmpdir(), 'hiring-test-'));
  const services: RunningService[] = [];
  const built = Promise.all([writeWorkflowBundles(dir), transpileSources(join(dir, 'build'))]);
  // A failed build is thrown below, once the servers started beside it are stopped again.
  built.catch(() => undefined);
  (globalThis as { __services?: RunningService[] }).__services = services;
  // What fails below stops the servers started before it, newest first, and fails the run.
  try {
    const db = await startDatabase({ dataDir: join(dir, 'db'), logDir: dir });
    services.push(db);
    const uris = [db.uri, ...(await moreFerretDbs(db, globalConfig.maxWorkers, dir, services))];
    process.env.TEST_MONGODB_URI = db.uri;
    process.env.TEST_MONGODB_URIS = uris.join(',');
    if (process.env.TEMPORAL_ADDRESS) {
      process.env.TEST_TEMPORAL_ADDRESS = process.env.TEMPORAL_ADDRESS;
    } else {
      const temporal = await startTemporalDevServer({ headless: true, logDir: dir });
      services.push(temporal);
      process.env.TEST_TEMPORAL_ADDRESS = temporal.address;
    }
    const [[plain, traced], transpiled] = await built;
    process.env.TEST_WORKFLOW_BUNDLE = plain;
    process.env.TEST_WORKFLOW_BUNDLE_TRACED = traced;
    process.env.TEST_SERVICE_MAIN = transpiled.main;
    process.env.TEST_ADMIN_CLI = transpiled.admin;
  } catch (err) {
    for (const s of services.reverse()) await s.stop();
    throw err;
  }
  process.env.TEST_SERVICES_DIR = dir;
  writeFileSync(
    join(dir, 'services.json'),
    JSON.stringify({ mongodb: process.env.TEST_MONGODB_URI, temporal: process.env.TEST_TEMPORAL_ADDRESS }),
  );
}

/**
 * FerretDB: a server of its own for each jest worker but the first (test/setup/service-modules-environment.js
 * gives each worker its own). One file's database can stall every other database of its server: FerretDB
 * 1.x creates a collection or an index under one lock of the whole server while it waits for that
 * database's SQLite, so a database whose writers hold all its connections (over 100 updates at once: each
 * holds two) stopped the reads of another database for good (scripts/bench/ferretdb-global-stall.ts). A file
 * then shares its server only with the files before and after it in its worker, never with one running
 * beside it. MongoDB (MONGODB_URI, or mongod) has no such lock: one server for the run.
 */
async function moreFerretDbs(first: DatabaseServer, workers: number, dir: string, services: RunningService[]): Promise<string[]> {
  if (first.flavour !== 'ferretdb') return [];
  const started = await Promise.allSettled(
    Array.from({ length: Math.max(0, workers - 1) }, (_, i) =>
      startDatabase({ dataDir: join(dir, `db-${i + 2}`), logDir: join(dir, `db-${i + 2}-log`) }),
    ),
  );
  // Each one started is the run's to stop, whether or not another failed.
  for (const s of started) if (s.status === 'fulfilled') services.push(s.value);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return started.map((s) => (s as PromiseFulfilledResult<DatabaseServer>).value.uri);
}
