/** Tests run against real MongoDB-wire and Temporal servers that test/global-setup.ts starts once. */
module.exports = {
  // Jest's node environment, the service's modules loaded once per jest worker (test/setup/service-modules-environment.js).
  testEnvironment: '<rootDir>/test/setup/service-modules-environment.js',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // `lazy`: a package a file imports is loaded when the file first uses it, not when the file is loaded (local
  // modules still load at once, in order). Jest loads a file's modules in a registry of its own, so a package
  // a helper imports for one function was loaded and run again by every file importing the helper.
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs', lazy: true } }],
    // The pages' templates (web/): TSX rendered by Preact, as tsconfig.json's jsx settings say.
    '^.+\\.tsx$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', importSource: 'preact' } },
        },
        module: { type: 'commonjs', lazy: true },
      },
    ],
  },
  // The default reporter, then the slowest files (test/setup/slowest-files-reporter.js) at the end of every run;
  // the run's outcome tells its teardown whether to remove the run's directory (test/setup/run-outcome-reporter.js).
  reporters: [
    ['<rootDir>/test/setup/slowest-files-reporter.js', { count: 10, budgetSeconds: 30 }],
    'default',
    '<rootDir>/test/setup/run-outcome-reporter.js',
  ],
  // Before each file: the AsyncLocalStorage instances of the files before it are disabled (test/setup/async-context.ts).
  setupFilesAfterEnv: ['<rootDir>/test/setup/async-context.ts'],
  // The longest files first, by jest's cached times or, in a fresh clone, by what each file starts.
  testSequencer: '<rootDir>/test/setup/longest-first-sequencer.js',
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60_000,
  // Three on this machine's two cores: a quarter of a file's time is spent waiting (on its processes, servers
  // and browser), which a third worker fills. Measured on 2026-11-28 (docs/test-speed.md): 2 workers 514 to 529 s,
  // 3 429 s, 4 397 s with files of 40 to 70 s beside the others.
  maxWorkers: 3,
  // A jest worker whose heap is over this after a file is replaced by a fresh one before its next file. Each file
  // left about 20 MB behind in its worker (its whole environment stays reachable from what outlives the file in
  // the process; which holder matters is not pinned down), so a worker's heap reached a gigabyte and the garbage
  // collector's work grew with it: a file late in a run took four times its CPU alone (docs/test-speed.md).
  // About 30 replacements a run, each reloading the service's modules.
  workerIdleMemoryLimit: '400MB',
};
