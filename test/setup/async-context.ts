// The module object itself (an import would be a copy through the compiler's interop), to replace its class.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const asyncHooks = require('node:async_hooks') as typeof import('node:async_hooks');

/**
 * Jest loads a test file's modules in a registry of its own, but node:async_hooks is the process's. So each
 * file's Temporal client, native connection, activity and Nexus contexts create AsyncLocalStorage instances
 * (four in a file with a stack) that stay enabled in the process after the file ends, and Node 20 gives every
 * new promise to each enabled instance: after eight files, 300,000 awaits took 1.6 s of CPU instead of 0.2,
 * and the slowdown grew through each jest worker's run. A production process loads its modules once and
 * has no such growth.
 *
 * Run before each test file (jest.config.js, setupFilesAfterEnv): the first run in a worker has the process's
 * AsyncLocalStorage record the instances made from then on, and every run disables those of the files before
 * it, whose stacks have stopped. What a file makes is its own until the next file starts.
 */
interface Registry {
  made: Array<{ disable(): void }>;
}
const KEY = Symbol.for('hiring-integration.test.async-local-storages');

function registry(): Registry {
  // Kept on the module object, the one thing here each file shares (jest gives each file a `process` of its own).
  const processWide = asyncHooks as unknown as Record<symbol, Registry | undefined>;
  const existing = processWide[KEY];
  if (existing) return existing;
  const made: Registry['made'] = [];
  const Recorded = class extends asyncHooks.AsyncLocalStorage<unknown> {
    constructor() {
      super();
      made.push(this);
    }
  };
  // The module object is the process's own (jest hands core modules through), so modules loaded later, in
  // any file's registry, construct the recorded class.
  Object.defineProperty(asyncHooks, 'AsyncLocalStorage', { value: Recorded, configurable: true, writable: true });
  return (processWide[KEY] = { made });
}

const { made } = registry();
for (const storage of made.splice(0)) storage.disable();
