import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The production image without a Docker engine: the Dockerfile's build stage, step by step as it is written
 * (its COPY and RUN lines, read from the file), in a scratch directory; then what its final stage keeps
 * (node_modules, dist, package.json) in a directory of its own. test/build/production-image.test.ts starts
 * it; `.ci/run` builds it beside the type check and the lint (`tsx test/build/image.ts <dir>`), and the test
 * takes that build when it is of the tree the test runs in.
 *
 * Like Docker's build cache, a RUN step whose inputs are unchanged (the instructions before it and the files
 * they copied) is not run again: the build directory as it left the step is kept in the services' cache
 * (image-layers/), and the next build starts from a copy of it. In practice that is `npm ci` while
 * package.json and package-lock.json stay as they were: 47 s of CPU (a minute of one core under the suite's
 * load) against 2 s for the copy. Every step after `COPY . .` runs each time, as it would under Docker.
 */
const ROOT = join(__dirname, '..', '..');

/** The build stage's instructions, in order: `COPY <src…> <dest>` and `RUN <shell command>`. */
type Step = { copy: string[] } | { run: string };
function buildSteps(root: string): Step[] {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const stage = dockerfile.split(/^FROM /m)[1];
  return stage.split('\n').flatMap((line): Step[] => {
    const copy = /^COPY (?!--)(.+)$/.exec(line);
    if (copy) return [{ copy: copy[1].trim().split(/\s+/).slice(0, -1) }];
    const run = /^RUN (.+)$/.exec(line);
    return run ? [{ run: run[1] }] : [];
  });
}

function trackedFiles(root: string): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
}

/** What `COPY <src> ./` brings into the build context: the tracked files (the .dockerignored ones are not tracked). */
function copyIntoContext(root: string, sources: string[], to: string): void {
  const wanted = sources.includes('.') ? trackedFiles(root) : sources;
  for (const file of wanted) {
    if (!existsSync(join(root, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(root, file), join(to, file));
  }
}

/** The tree an image is built from: every tracked file's path and content, as they are in the work tree now. */
export function treeFingerprint(root = ROOT): string {
  const hash = createHash('sha256');
  for (const file of trackedFiles(root)) {
    if (!existsSync(join(root, file))) continue;
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** Where the kept layers live: beside the services' binaries (scripts/lib.sh names the same directory). */
function layerCacheDir(): string {
  const cache = process.env.SERVICES_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'hiring-integration');
  return join(cache, 'image-layers');
}

/** A step's layer key: the key before it, its instruction, and the content of the files it copies. */
function layerKey(root: string, before: string, step: Step): string {
  const hash = createHash('sha256').update(before).update(JSON.stringify(step));
  if ('copy' in step)
    for (const file of step.copy)
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(join(root, file)));
  return hash.digest('hex');
}

/** Files a later step writes in place (npm prune rewrites its hidden lockfile): copied, never linked. */
const WRITTEN_IN_PLACE = [join('node_modules', '.package-lock.json')];

/**
 * A kept layer's tree at a new path: `node_modules` as hard links, the rest copied. Creating 46,000 files
 * took this machine's disk 18 to 35 s of kernel CPU (cp -a and fs.cpSync alike), linking them 2.5 to 3.7 s.
 * A link shares its file with the kept layer, so nothing after may write into a linked file: the later steps
 * only add files (dist/) and remove them (npm prune), but for the files in WRITTEN_IN_PLACE, which are copies
 * of their own (checked: after a build and a prune, no other file of the kept layer changed).
 */
function copyLayer(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  const cp = (flags: string, entry: string) => execFileSync('cp', [flags, join(from, entry), join(to, entry)], { stdio: 'pipe' });
  for (const entry of readdirSync(from)) {
    if (entry !== 'node_modules') {
      cp('-a', entry);
      continue;
    }
    try {
      cp('-al', entry);
    } catch {
      // Another file system (a /tmp in memory, say) cannot hold a link to the cache's files: copied.
      rmSync(join(to, entry), { recursive: true, force: true });
      cp('-a', entry);
    }
  }
  for (const file of WRITTEN_IN_PLACE) {
    if (!existsSync(join(from, file))) continue;
    rmSync(join(to, file));
    cpSync(join(from, file), join(to, file));
  }
}

/** Keeps the build directory as a RUN step left it, as the only kept layer (one build's worth of disk). */
function keepLayer(build: string, key: string): void {
  const dir = layerCacheDir();
  mkdirSync(dir, { recursive: true });
  const partial = join(dir, `${key}.${process.pid}.partial`);
  copyLayer(build, partial);
  try {
    renameSync(partial, join(dir, key));
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another build kept it first
  }
  for (const other of readdirSync(dir))
    if (other !== key && !other.endsWith('.partial')) rmSync(join(dir, other), { recursive: true, force: true });
}

/**
 * Builds the image of the tree at `root` (the checkout; another, such as a worktree of a release's commit:
 * test/helpers/releases.ts) into `<scratch>/image` (the build stage in `<scratch>/build`); its directory.
 */
export function buildImage(scratch: string, root = ROOT): string {
  const fingerprint = treeFingerprint(root);
  const build = join(scratch, 'build');
  mkdirSync(build, { recursive: true });
  // Null once a step copies the whole tree: what follows changes with every edit, so nothing is kept.
  let key: string | null = '';
  for (const step of buildSteps(root)) {
    key = key !== null && !('copy' in step && step.copy.includes('.')) ? layerKey(root, key, step) : null;
    if ('copy' in step) {
      copyIntoContext(root, step.copy, build);
      continue;
    }
    const kept = key && join(layerCacheDir(), key);
    if (kept && existsSync(kept)) {
      rmSync(build, { recursive: true, force: true });
      copyLayer(kept, build);
      continue;
    }
    execFileSync('sh', ['-c', step.run], { cwd: build, stdio: 'pipe', timeout: 600_000 });
    if (key) keepLayer(build, key);
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
