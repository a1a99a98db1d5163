const { availableParallelism } = require('node:os');

/**
 * Ends every jest run with its slowest test files and their times (the whole file: its hooks, tests and the
 * module loading before them), so a file that grows slower shows in every CI log. `SLOWEST_FILES=N` prints N
 * (10 by default). docs/test-speed.md keeps the budget: no file over 30 s on its own. Beside the other workers'
 * files, with more workers than cores, a file has a share of a core: 1/2 with four workers on two cores,
 * so its budget there is 60 s (a file run alone, `npx jest <file>`, has the 30 s).
 */
class SlowestFilesReporter {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.count = Number(process.env.SLOWEST_FILES ?? options.count ?? 10);
    this.share = Math.min(1, availableParallelism() / Math.max(1, globalConfig.maxWorkers));
    this.budgetSeconds = Number(options.budgetSeconds ?? 30);
    this.files = [];
  }

  onTestResult(test, result) {
    const { start, end } = result.perfStats;
    this.files.push({ path: test.path.slice(this.rootDir.length + 1), seconds: (end - start) / 1000 });
  }

  onRunComplete(_contexts, results) {
    if (this.files.length === 0) return;
    const sorted = [...this.files].sort((a, b) => b.seconds - a.seconds);
    const total = sorted.reduce((sum, f) => sum + f.seconds, 0);
    const wall = (Date.now() - results.startTime) / 1000;
    // One file runs alone (jest runs it in band), with the whole budget.
    const budget = this.budgetSeconds / (sorted.length > 1 ? this.share : 1);
    const lines = sorted.slice(0, this.count).map((f) => {
      const over = f.seconds > budget ? `  (over the budget of ${budget.toFixed(0)} s)` : '';
      return `  ${f.seconds.toFixed(1).padStart(6)} s  ${f.path}${over}`;
    });
    process.stderr.write(
      `\nThe ${lines.length} slowest of ${sorted.length} test files (their times add up to ${total.toFixed(0)} s in ${wall.toFixed(0)} s of wall time):\n` +
        `${lines.join('\n')}\n`,
    );
  }
}

module.exports = SlowestFilesReporter;
