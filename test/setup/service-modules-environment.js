const { TestEnvironment } = require('jest-environment-node');
const { dirname, join } = require('node:path');

/**
 * Jest's node environment, with the service's own modules loaded once per jest worker process.
 *
 * Jest runs each test file in a module registry of its own, so a file that starts a stack loaded the service
 * again (Koa, the MongoDB driver, the Temporal SDK, the routes, stores and activities), and ran its code cold:
 * about a second of CPU a file, in the 60 files that start one. This environment runs outside the files'
 * sandbox, where `require` is Node's own, so `globalThis.__serviceModules()` hands every file of a worker
 * the same modules, loaded once from the sources test/global-setup.ts transpiled for the run (the ones the
 * service processes of the tests run). The stack each file starts is still its own (database, task queue,
 * API, worker), and is stopped when the file ends; what its modules keep at module level is the process's,
 * as in a service process. The API's contract check (test/helpers/api-contract-checks.ts), which every API
 * test runs on its responses, is loaded here too: it only reads what it is given and returns strings. Test
 * files keep their own registry for everything else.
 */
let loaded;

function serviceModules() {
  if (loaded) return loaded;
  const main = process.env.TEST_SERVICE_MAIN;
  if (!main) throw new Error('no transpiled sources: test/global-setup.ts writes them when jest starts');
  const dir = dirname(main);
  const load = (path) => require(join(dir, ...path.split('/')));
  loaded = {
    service: load('composition/service.js'),
    runtime: load('infra/temporal-runtime.js'),
    metrics: load('infra/metrics.js'),
    server: load('api/server.js'),
    temporal: load('infra/temporal.js'),
    contract: load('test/helpers/api-contract-checks.js'),
  };
  return loaded;
}

class ServiceModulesEnvironment extends TestEnvironment {
  constructor(config, context) {
    // This worker's own database server, where the run has one per worker (test/global-setup.ts), set before
    // jest copies the worker's environment variables into the file's.
    const uris = process.env.TEST_MONGODB_URIS?.split(',') ?? [];
    if (uris.length > 1) process.env.TEST_MONGODB_URI = uris[(Number(process.env.JEST_WORKER_ID ?? 1) - 1) % uris.length];
    super(config, context);
    Object.defineProperty(this.global, '__serviceModules', { value: serviceModules });
  }
}

module.exports = ServiceModulesEnvironment;
