import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { buildImage } from '../build/image';

const ROOT = join(__dirname, '..', '..');

/** A release as CHANGELOG.md names it (`## Release <n> — <YYYY-MM-DD>`), and the commit it was cut at. */
export interface Release {
  number: number;
  date: string;
  /**
   * The commit that added its heading to CHANGELOG.md: the release's commit (docs/tests.md, "Releases"). Null
   * while the heading is not committed yet (the work tree of the change that cuts it).
   */
  commit: string | null;
}

const HEADING = /^## Release (\d+) — (\d{4}-\d{2}-\d{2})$/gm;

/** Every release CHANGELOG.md names, newest first. */
export function releases(changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')): Release[] {
  return [...changelog.matchAll(HEADING)]
    .map(([heading, n, date]) => ({ number: Number(n), date, commit: commitThatAdded(heading) }))
    .sort((a, b) => b.number - a.number);
}

function commitThatAdded(heading: string): string | null {
  const found = execFileSync('git', ['log', '--format=%H', '--reverse', '-S', heading, '--', 'CHANGELOG.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  return found[0] ?? null;
}

/** Whether the checkout's tracked files are exactly those of `commit` (the release is this very code). */
function checkoutIs(commit: string | null): boolean {
  if (commit === null) return true;
  try {
    execFileSync('git', ['diff', '--quiet', commit, '--'], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Where release images are kept between runs: beside the services' binaries (test/build/image.ts keeps its layers there). */
function releaseImagesDir(): string {
  const cache = process.env.SERVICES_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'hiring-integration');
  return join(cache, 'release-images');
}

/**
 * The code of `release`, ready to start as production starts it: null when it is the checkout's own (its tree
 * is the release's; the caller starts the run's build of the sources), else the production image of its commit
 * (test/build/image.ts: the Dockerfile's steps, on a worktree of the commit, with the release's own scripts). A
 * release's code never changes, so its image is built once and kept in the services' cache, one per release:
 * the first run after a release pays its build (its `npm ci` layer taken from the cache while the lock is the
 * same), every later one starts it at once.
 */
export function releaseImage(release: Release, scratch: string): string | null {
  if (checkoutIs(release.commit)) return null;
  const kept = join(releaseImagesDir(), release.commit!);
  if (existsSync(join(kept, 'image', 'dist', 'main.js'))) return join(kept, 'image');
  const tree = join(scratch, `release-${release.number}`);
  const building = join(scratch, `release-${release.number}-image`);
  mkdirSync(building, { recursive: true });
  execFileSync('git', ['worktree', 'add', '--detach', tree, release.commit!], { cwd: ROOT, stdio: 'ignore' });
  try {
    buildImage(building, tree);
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT, stdio: 'ignore' });
  }
  // Kept whole or not at all: another run may be building it too.
  mkdirSync(releaseImagesDir(), { recursive: true });
  const partial = `${kept}.${process.pid}.partial`;
  renameSync(building, partial);
  try {
    renameSync(partial, kept);
  } catch {
    rmSync(partial, { recursive: true, force: true });
  }
  // Only the releases CHANGELOG.md still names are kept.
  const named = new Set(releases().map((r) => r.commit));
  for (const other of readdirSync(releaseImagesDir()))
    if (!named.has(other) && !other.endsWith('.partial')) rmSync(join(releaseImagesDir(), other), { recursive: true, force: true });
  return join(kept, 'image');
}
