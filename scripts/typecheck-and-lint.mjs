// `npm run check`: the type check and ESLint on one TypeScript program, as CI runs them.
//
// Why one program: `tsc --noEmit` and ESLint's type-aware rules (no-floating-promises, no-misused-promises)
// each built the whole project's program and checked its types, one after the other's work. Given tsc's
// program (`parserOptions.programs`), ESLint asks the checker for types it has already checked: 30.5 core-s
// for both, where the two commands took 19.8 and 27.8 (2026-11-28, this machine). The answers are theirs:
// tsc's diagnostics of tsconfig.json, then ESLint's results of eslint.config.mjs, each printed as its own
// command prints them; exit status 1 when either found anything. `npm run typecheck` and `npm run lint`
// stay the commands to run one of them alone.
import ts from 'typescript';
import { ESLint } from 'eslint';

const host = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: ts.sys.getCurrentDirectory,
  getNewLine: () => ts.sys.newLine,
};
const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;

const config = ts.getParsedCommandLineOfConfigFile(
  'tsconfig.json',
  { noEmit: true },
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      process.stderr.write(format([d], host));
      process.exit(1);
    },
  },
);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
if (diagnostics.length > 0) process.stdout.write(format(diagnostics, host));

const eslint = new ESLint({ overrideConfig: { languageOptions: { parserOptions: { projectService: false, programs: [program] } } } });
const results = await eslint.lintFiles(['.']);
const report = (await eslint.loadFormatter('stylish')).format(results);
if (report) process.stdout.write(report);

const lintErrors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
process.exitCode = diagnostics.length > 0 || lintErrors > 0 ? 1 : 0;
