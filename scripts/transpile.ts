import { copyFileSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(__dirname, '..');
/** The folders a service process and the admin CLI run from: what `npm run build` puts in dist/ (scripts/build.ts). */
const SOURCES = [
  'api',
  'web',
  'workflows',
  'activities',
  'stores',
  'operations',
  'providers',
  'worker',
  'composition',
  'shared',
  'infra',
  'scripts',
];
/** The test helpers the jest workers load beside the service's modules (test/setup/service-modules-environment.js). */
const SHARED_TEST_HELPERS = ['test/helpers/api-contract-checks.ts'];
/** Files the code reads beside itself at run time (scripts/services.ts reads lib.sh, which reads the test server's pom.xml). */
const BESIDE = ['scripts/lib.sh', 'scripts/temporal-test-server.sh', 'scripts/test-server/pom.xml'];

export interface TranspiledSources {
  dir: string;
  /** `node <main>` starts a service process (ROLE=…), as `node --import tsx main.ts` does. */
  main: string;
  /** `node <admin> <command> …` is the admin CLI, as `tsx scripts/admin.ts` is. */
  admin: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The sources transpiled file by file into `dir`, as tsx transpiles them each time it starts a process
 * (esbuild, the tsconfig's JSX settings, CommonJS). For the tests (`'tests'`, the default), once a run: a
 * process started from them skips tsx's loader, about 0.9 s less CPU for each service process and admin
 * command the tests and the chaos suite start (dozens per run), and the packages resolve through a
 * `node_modules` link to the project's own. For `npm run build` (`'build'`, scripts/build.ts): dist/ of the
 * image, with source maps, without the test helpers.
 */
export async function transpileSources(dir: string, purpose: 'tests' | 'build' = 'tests'): Promise<TranspiledSources> {
  const forTests = purpose === 'tests';
  const entryPoints = [
    join(ROOT, 'main.ts'),
    ...SOURCES.flatMap((folder) => sourceFiles(join(ROOT, folder))),
    ...(forTests ? SHARED_TEST_HELPERS.map((file) => join(ROOT, file)) : []),
  ];
  await build({
    entryPoints,
    outdir: dir,
    outbase: ROOT,
    bundle: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: !forTests,
    // `import()` as tsc's CommonJS writes it (a require, once the promise runs), so a module a command loads
    // on demand (scripts/admin.ts) resolves as every other one does, without its .js.
    supported: { 'dynamic-import': false },
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'error',
  });
  if (forTests) {
    for (const file of BESIDE) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      copyFileSync(join(ROOT, file), join(dir, file));
    }
    symlinkSync(relative(dir, join(ROOT, 'node_modules')) || '.', join(dir, 'node_modules'), 'dir');
  }
  return { dir, main: join(dir, 'main.js'), admin: join(dir, 'scripts', 'admin.js') };
}
