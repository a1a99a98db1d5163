/**
 * Tells the run's teardown (test/global-teardown.ts) whether every test passed. Jest calls reporters before
 * the global teardown, in the same process: the teardown then removes the run's directory (the database's
 * files, the bundles, the transpiled sources, the servers' and service processes' logs), or keeps it and
 * says where when something failed, as those logs are what explains a failure.
 */
class RunOutcomeReporter {
  onRunComplete(_contexts, results) {
    globalThis.__testRunPassed = !results.runExecError && results.numFailedTests === 0 && results.numRuntimeErrorTestSuites === 0;
  }
}

module.exports = RunOutcomeReporter;
