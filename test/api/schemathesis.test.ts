import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { provisioned } from '../../scripts/services';
import { startStack, type Stack } from '../helpers/stack';

/**
 * The service fuzzed against its own OpenAPI document by schemathesis (installed by scripts/provision.sh into
 * a virtual environment of its own): every phase (the document's examples, coverage of each schema keyword,
 * then generated data, positive and negative), with a fixed seed and a bounded number of examples per
 * operation. Zero failures: no 5xx, only documented statuses, content types and bodies, and every request that
 * breaks the schema refused.
 */
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
];

describe('schemathesis against /openapi.json', () => {
  let stack: Stack;
  beforeAll(async () => {
    // The AI budget is raised so generated requests reach validation instead of stopping at 429.
    stack = await startStack({ worker: true, env: { AI_RATE_LIMIT: '10000', SIMULATOR_CALL_SECONDS: '0' } });
  });
  afterAll(() => stack?.stop());

  it('finds no failure in 20 examples per operation (seed 42)', async () => {
    const { key } = await stack.newWorkspace('Fuzz');
    const st = join(provisioned().schemathesisVenv, 'bin', 'st');
    const args = [
      'run',
      `${stack.url}/openapi.json`,
      '--checks',
      CHECKS.join(','),
      '--seed',
      '42',
      '--max-examples',
      '20',
      '--header',
      `x-service-api-key: ${key}`,
      '--generation-database',
      'none',
      // One worker: hypothesis's lambda descriptions are not thread-safe on Python 3.11.
      '--workers',
      '1',
      '--no-color',
    ];
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      // schemathesis keeps a cache in its working directory (.schemathesis/): a scratch one keeps the tree clean.
      const cwd = mkdtempSync(join(tmpdir(), 'schemathesis-'));
      const child = spawn(st, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c, output }));
    });
    const summary = output.slice(output.lastIndexOf('SUMMARY'));
    if (code !== 0) throw new Error(`schemathesis exited with ${code}:\n${output.slice(-20_000)}`);
    const selected = /Selected: (\d+)\/\1\b/.exec(summary)?.[1];
    expect(Number(selected)).toBeGreaterThan(15);
    expect(summary).toContain(`Tested: ${selected}`);
    expect(summary).toMatch(/(\d+) generated, \1 passed/);
    expect(summary).not.toMatch(/Failures:|Errors:/);
  }, 900_000);
});
