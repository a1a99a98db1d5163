import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { BUNDLE_FILES, workflowsPath } from '../worker/worker';

/** Tracing's workflow interceptors (@temporalio/interceptors-opentelemetry), which run inside the sandbox. */
export const TRACING_WORKFLOW_MODULES = [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

/**
 * The workflows bundled once, ahead of the worker (`npm run build` writes dist/workflow-bundle.js; the bench
 * writes its own). A worker that loads a bundle never runs webpack itself: it starts at 213 MiB resident
 * instead of 339 in a measurement, the bundler's memory never being given back to the system.
 */
export async function writeWorkflowBundle(path: string, traced = false): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: workflowsPath(),
    workflowInterceptorModules: traced ? TRACING_WORKFLOW_MODULES : [],
    logger: new DefaultLogger('WARN'),
  });
  writeFileSync(path, code);
}

/** Both bundles into `dir`, under the names the worker looks for beside itself (BUNDLE_FILES). */
export async function writeWorkflowBundles(dir: string): Promise<string[]> {
  const plain = join(dir, BUNDLE_FILES.plain);
  const traced = join(dir, BUNDLE_FILES.traced);
  await writeWorkflowBundle(plain);
  await writeWorkflowBundle(traced, true);
  return [plain, traced];
}

/** Both bundles beside the compiled worker (as `npm run build` writes them), or the plain one at the path given. */
async function main(given: string | undefined): Promise<string[]> {
  if (given) return writeWorkflowBundle(given).then(() => [given]);
  return writeWorkflowBundles(join(__dirname, '..'));
}

if (require.main === module) {
  main(process.argv[2]).then(
    (paths) => process.stdout.write(`workflow bundles written to ${paths.join(', ')}\n`),
    (err: Error) => {
      process.stderr.write(`${err.stack}\n`);
      process.exitCode = 1;
    },
  );
}
