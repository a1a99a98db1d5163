/** Tests run against real MongoDB-wire and Temporal servers that test/global-setup.ts starts once. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }],
    // The pages' templates (web/): TSX rendered by Preact, as tsconfig.json's jsx settings say.
    '^.+\\.tsx$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', importSource: 'preact' } },
        },
      },
    ],
  },
  // The default reporter, then the slowest files (test/slowest-files-reporter.js) at the end of every run.
  reporters: [['<rootDir>/test/slowest-files-reporter.js', { count: 10, budgetSeconds: 30 }], 'default'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60_000,
  // Two cores: one worker per core keeps the Temporal servers responsive.
  maxWorkers: 2,
};
