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
  // Four on this machine's two cores: a file spends part of its time waiting (on its processes, servers and
  // browser), which the extra workers fill. Measured on 2026-11-28 (docs/test-speed-log.md): earlier, 2
  // workers 514 to 529 s, 3 429 s, 4 397 s with files of 40 to 70 s beside the others; in the evening, the
  // suite lighter, 3 workers 318 s with 68 core-s of the two cores idle, 4 297 and 302 s with 16 and 27 idle.
  maxWorkers: 4,
  // A jest worker whose heap is over this after a file is replaced by a fresh one before its next file. Each
  // file left about 20 MB in its worker (mostly through the live interviews' renewal timer, which outlived the
  // service it was built for, fixed since), so a worker's heap reached a gigabyte and the garbage collector's
  // work grew with it: a file late in a run took four times its CPU alone (docs/test-speed-log.md). What a file
  // still leaves is half of that, some of it held only for seconds by timers of its last requests.
  workerIdleMemoryLimit: '400MB',
};
