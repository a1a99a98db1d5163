import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildImage, prebuiltImage } from './image';
import { stopProcess } from '../../scripts/services';
import { serviceProcessEnv } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

/**
 * The production image without a Docker engine (test/build/image.ts): the Dockerfile's build stage as it is
 * written, in a scratch directory, then what its final stage keeps, started as the image's CMD with ROLE=api
 * and ROLE=worker against the test servers. A lock file `npm ci` refuses, a build that emits nothing runnable,
 * or a module that production needs among the devDependencies fails here. `.ci/run` builds the image beside
 * its type check and lint and names it in TEST_IMAGE_DIR; a build of another tree than this one is not taken.
 */
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
    const given = process.env.TEST_IMAGE_DIR;
    const image = (given && prebuiltImage(given)) || buildImage(scratch);
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
