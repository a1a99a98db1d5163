import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeWorkflowBundles } from './bundle-workflows';
import { transpileSources } from './transpile';

/**
 * `npm run build`, as the Dockerfile's build stage runs it: dist/ holds the sources transpiled file by file
 * (scripts/transpile.ts: esbuild, as every service process the tests start runs them, so the image runs the
 * code the suite ran) and both workflow bundles beside the worker. It checks no types: `npm run check` does,
 * and CI runs it first. tsc's emit took 16 core-s of each image's build; this takes about 5, most of it the
 * two bundles (docs/test-speed-log.md).
 */
async function main(): Promise<void> {
  const dist = join(__dirname, '..', 'dist');
  rmSync(dist, { recursive: true, force: true });
  await transpileSources(dist, 'build');
  await writeWorkflowBundles(dist);
}

main().then(
  () => process.stdout.write('built into dist/\n'),
  (err: Error) => {
    process.stderr.write(`${err.stack}\n`);
    process.exitCode = 1;
  },
);
