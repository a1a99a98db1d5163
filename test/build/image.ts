import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The production image without a Docker engine: the Dockerfile's build stage, step by step as it is written
 * (its COPY and RUN lines, read from the file), in a scratch directory; then what its final stage keeps
 * (node_modules, dist, package.json) in a directory of its own. test/build/production-image.test.ts starts
 * it; `.ci/run` builds it beside the type check and the lint (`tsx test/build/image.ts <dir>`), and the test
 * takes that build when it is of the tree the test runs in.
 */
const ROOT = join(__dirname, '..', '..');

/** The build stage's instructions, in order: `COPY <src…> <dest>` and `RUN <shell command>`. */
type Step = { copy: string[] } | { run: string };
function buildSteps(): Step[] {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const stage = dockerfile.split(/^FROM /m)[1];
  return stage.split('\n').flatMap((line): Step[] => {
    const copy = /^COPY (?!--)(.+)$/.exec(line);
    if (copy) return [{ copy: copy[1].trim().split(/\s+/).slice(0, -1) }];
    const run = /^RUN (.+)$/.exec(line);
    return run ? [{ run: run[1] }] : [];
  });
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
}

/** What `COPY <src> ./` brings into the build context: the tracked files (the .dockerignored ones are not tracked). */
function copyIntoContext(sources: string[], to: string): void {
  const wanted = sources.includes('.') ? trackedFiles() : sources;
  for (const file of wanted) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(ROOT, file), join(to, file));
  }
}

/** The tree an image is built from: every tracked file's path and content, as they are in the work tree now. */
export function treeFingerprint(): string {
  const hash = createHash('sha256');
  for (const file of trackedFiles()) {
    if (!existsSync(join(ROOT, file))) continue;
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** Builds the image into `<scratch>/image` (the build stage in `<scratch>/build`) and returns its directory. */
export function buildImage(scratch: string): string {
  const fingerprint = treeFingerprint();
  const build = join(scratch, 'build');
  mkdirSync(build, { recursive: true });
  for (const step of buildSteps()) {
    if ('copy' in step) copyIntoContext(step.copy, build);
    else execFileSync('sh', ['-c', step.run], { cwd: build, stdio: 'pipe', timeout: 600_000 });
  }
  // The final stage: only what it copies from the build stage.
  const image = join(scratch, 'image');
  mkdirSync(image);
  for (const kept of ['node_modules', 'dist', 'package.json']) renameSync(join(build, kept), join(image, kept));
  rmSync(build, { recursive: true, force: true });
  writeFileSync(join(scratch, 'tree.sha256'), fingerprint);
  return image;
}

/** The image built into `scratch` beforehand, if it was built from the tree as it is now; otherwise null. */
export function prebuiltImage(scratch: string): string | null {
  const mark = join(scratch, 'tree.sha256');
  if (!existsSync(mark) || readFileSync(mark, 'utf8') !== treeFingerprint()) return null;
  return join(scratch, 'image');
}

if (require.main === module) {
  const scratch = process.argv[2];
  if (!scratch) {
    process.stderr.write('usage: tsx test/build/image.ts <empty directory>\n');
    process.exit(2);
  }
  const started = Date.now();
  buildImage(scratch);
  process.stdout.write(`production image built in ${((Date.now() - started) / 1000).toFixed(0)} s: ${join(scratch, 'image')}\n`);
}
