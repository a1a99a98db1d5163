import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stopProcess } from '../../scripts/services';
import { serviceProcessEnv } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

/**
 * The production image without a Docker engine: the Dockerfile's build stage, step by step as it is written
 * (its COPY and RUN lines, read from the file), in a scratch directory; then what its final stage keeps
 * (node_modules, dist, package.json) in a directory of its own, started as the image's CMD with ROLE=api and
 * ROLE=worker against the test servers. A lock file `npm ci` refuses, a build that emits nothing runnable, or
 * a module that production needs among the devDependencies fails here.
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

/** What `COPY <src> ./` brings into the build context: the tracked files (the .dockerignored ones are not tracked). */
function copyIntoContext(sources: string[], to: string): void {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  const wanted = sources.includes('.') ? tracked : sources;
  for (const file of wanted) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(ROOT, file), join(to, file));
  }
}

function startImage(image: string, env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: image, env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env } });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

describe('the production image, built as the Dockerfile says', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'hiring-image-'));
  const running: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of running) await stopProcess(child, 5_000);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('installs with npm ci, builds, prunes the dev dependencies, and starts the API and the worker', async () => {
    const build = join(scratch, 'build');
    mkdirSync(build);
    for (const step of buildSteps()) {
      if ('copy' in step) copyIntoContext(step.copy, build);
      else execFileSync('sh', ['-c', step.run], { cwd: build, stdio: 'pipe', timeout: 600_000 });
    }
    // The final stage: only what it copies from the build stage.
    const image = join(scratch, 'image');
    mkdirSync(image);
    for (const kept of ['node_modules', 'dist', 'package.json']) renameSync(join(build, kept), join(image, kept));
    expect(existsSync(join(image, 'node_modules', 'typescript'))).toBe(false);
    // The build bundles the workflows, so the worker never runs webpack.
    expect(existsSync(join(image, 'dist', 'workflow-bundle.js'))).toBe(true);

    // The image's own bundle, not the one the test run made (serviceProcessEnv names it).
    const { WORKFLOW_BUNDLE_PATH: _runBundle, ...env } = await serviceProcessEnv('image');
    const api = startImage(image, { ...env, ROLE: 'api' });
    const worker = startImage(image, { ...env, ROLE: 'worker' });
    running.push(api.child, worker.child);
    const listening = await waitFor(
      async () => api.output(),
      (out) => out.includes('"msg":"API listening"'),
      60_000,
    );
    expect(listening).toContain('"msg":"API listening"');
    const ready = await fetch(`http://127.0.0.1:${env.PORT}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', temporal: 'ok', search_attributes: 'ok' } },
    });
    // The worker loads the bundle the build wrote: a bundle it cannot load never says this.
    const started = await waitFor(
      async () => worker.output(),
      (out) => out.includes('"msg":"worker started"'),
      120_000,
    );
    expect(started).toContain('"msg":"worker started"');
  }, 900_000);
});
