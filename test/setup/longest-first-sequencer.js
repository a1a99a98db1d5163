const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * What a test file starts, and about how many seconds that costs it on this machine beside the rest of the
 * suite: the files that start servers, processes or browsers are the long ones, whatever their length.
 */
const STARTS = [
  [/from '\.\.\/helpers\/fuzz-requests'/, 35],
  [/schemathesisGroup\(/, 25],
  [/buildImage\(|processStack\(|startServiceFromBuild\(/, 20],
  [/runAdmin\(|adminCliDatabase\(/, 15],
  [/launchBrowser\(|startStack\(\{[^}]*worker: true|webhookBench\(|followedInterviews\(/, 10],
  [/createTimeSkippingEnv\(/, 8],
  [/startStack\(/, 5],
];

/**
 * Runs the longest files first, so the last minute of a run is not one long file on one core while the other
 * waits (a run's length is its longest worker's). Jest's own order does that from the times its cache keeps;
 * a fresh clone has none, and jest then goes by file size, which put the schemathesis files (four lines each,
 * half a minute each) last of 137. So a file without a cached time is given an estimate from what it starts
 * (STARTS) and its size; failed files still come first.
 */
class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    // In milliseconds, as jest's cache keeps a file's time.
    const estimate = (path) => {
      const source = readFileSync(path, 'utf8');
      const starts = Math.max(0, ...STARTS.filter(([pattern]) => pattern.test(source)).map(([, seconds]) => seconds));
      return (starts + source.length / 2_000) * 1_000;
    };
    const ms = new Map(tests.map((test) => [test, this.time(test) ?? estimate(test.path)]));
    return [...tests].sort((a, b) => {
      const failed = Number(this.hasFailed(b)) - Number(this.hasFailed(a));
      return failed !== 0 ? failed : ms.get(b) - ms.get(a);
    });
  }
}

module.exports = LongestFirstSequencer;
