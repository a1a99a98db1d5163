import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
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

/**
 * The code of `release`, ready to start as production starts it: null when it is the checkout's own (its tree
 * is the release's; the caller starts the run's build of the sources), else the production image built from a
 * worktree of its commit in `scratch` (test/build/image.ts: the Dockerfile's steps, its `npm ci` layer taken from
 * the cache while the lock file is the same). The worktree is removed when `done` is called.
 */
export function releaseImage(release: Release, scratch: string): { image: string | null; done: () => void } {
  if (checkoutIs(release.commit)) return { image: null, done: () => undefined };
  const tree = join(scratch, `release-${release.number}`);
  mkdirSync(join(scratch, `release-${release.number}-image`), { recursive: true });
  execFileSync('git', ['worktree', 'add', '--detach', tree, release.commit!], { cwd: ROOT, stdio: 'ignore' });
  const done = () => execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT, stdio: 'ignore' });
  try {
    return { image: buildImage(join(scratch, `release-${release.number}-image`), tree), done };
  } catch (err) {
    done();
    throw err;
  }
}
