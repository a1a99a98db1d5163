import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { provisioned } from '../../scripts/services';
import { OPERATIONS } from '../../api/openapi/operation-table';
import type { Operation } from '../../api/openapi/operation';
import { startStack, type Stack } from './stack';
import { TEST as EXAMPLE_TEST } from '../../api/partners/openapi-setup';
import type { PartnerTestDoc } from '../../infra/documents/partners';
import type { PartnerAts } from '../../shared/partners/schema';
import { scratchDir } from './scratch';

/**
 * The service fuzzed against its own OpenAPI document by schemathesis (installed by scripts/provision.sh into
 * a virtual environment of its own): every phase (the document's examples, coverage of each schema keyword,
 * then generated data, positive and negative), with a fixed seed and a bounded number of examples per
 * operation. Zero failures: no 5xx, only documented statuses, content types and bodies, and every request that
 * breaks the schema refused.
 *
 * The operations are run in groups, a test file each (test/api/schemathesis-*.test.ts), so the groups run
 * side by side and no file runs for minutes; every operation is in exactly one group, which
 * test/api/openapi.test.ts checks. A group names its operations by tag, and call/initiate has one of its own:
 * its generated batches start calls, and it took as long as the rest of the calls' operations together.
 */
const tagged =
  (...tags: string[]) =>
  (op: Operation) =>
    tags.includes(op.tag) && op.operationId !== 'initiateCalls';
const partnerTests = (op: Operation) => tagged('ATS partners')(op) && op.path.startsWith('/api/public/v1/partner-tests');
export const SCHEMATHESIS_GROUPS = {
  'call-initiate': (op: Operation) => op.operationId === 'initiateCalls',
  calls: tagged('Calls'),
  interviews: tagged('Interviews'),
  ai: tagged('AI'),
  webhooks: tagged('Webhooks', 'Provider callbacks', 'Reference', 'Health'),
  'ats-doors': tagged('ATS doors'),
  // Apart from the workspace's, and the tests (whose bodies hold an invitation's or a call's whole terms) apart
  // from the keys: together they took 90 s, then 69 s, beside the other files, over a file's budget.
  'ats-partners': (op: Operation) => tagged('ATS partners')(op) && !op.path.startsWith('/api/public/v1/partner-tests'),
  'partner-tests': partnerTests,
  workspace: tagged('Workspace', 'Projects', 'Suppressions'),
};

/**
 * The phases a group runs: all of them, but for the partner tests. Their bodies hold an invitation's or a call's
 * whole terms, whose boundary cases (the coverage phase) the interviews' and call/initiate's groups already run
 * against the same schemas; coverage of them again took 18 s of the group's 28 alone, and 97 s of file time in a
 * run. Their examples, generated cases (valid and not) and links still run.
 */
const PHASES: Partial<Record<keyof typeof SCHEMATHESIS_GROUPS, string>> = { 'partner-tests': 'examples,fuzzing,stateful' };

/**
 * The AI operations' short paths (`/ai/…`, kept for the clients of the first release) are the same operations,
 * schema and handler, as their `/api/public/v1/ai/…` ones: their examples run, to hold each path to the
 * reference; the boundary cases and generated data of the same schemas, which took half of the group's 17 s
 * alone (and 75 s beside a loaded machine's other files), run once, at the versioned path.
 */
const aliasOf = (op: Operation) => op.tag === 'AI' && op.operationId.endsWith('Short');
const ALIAS_PHASES = 'examples';

const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
];

/** Registers the group's test in the calling file: its own stack, schemathesis over the group's operations. */
export function schemathesisGroup(group: keyof typeof SCHEMATHESIS_GROUPS): void {
  const ids = OPERATIONS.filter(SCHEMATHESIS_GROUPS[group]).map((op) => op.operationId);
  const operations = ids.length;

  describe(`schemathesis against /openapi.json: ${group}`, () => {
    let stack: Stack;
    beforeAll(async () => {
      // The AI budget is raised so generated requests reach validation instead of stopping at 429.
      stack = await startStack({ worker: true, env: { AI_RATE_LIMIT: '10000', SIMULATOR_CALL_SECONDS: '0' } });
    });
    afterAll(() => stack?.stop());

    it(`finds no failure in 20 examples per operation of ${operations} (seed 42)`, async () => {
      const workspace = await stack.newWorkspace('Fuzz');
      await withTheExampleTest(stack, workspace.id);
      // Each ATS's door with a key of its own (HTTP Basic), every other operation with the API key.
      const runs = new Map<string, { header: string; ids: string[]; phases?: string }>();
      for (const op of OPERATIONS.filter(SCHEMATHESIS_GROUPS[group])) {
        const ats = op.security === 'partnerKey' ? (/^\/partners\/([a-z]+)\//.exec(op.path)![1] as PartnerAts) : null;
        const name = `${ats ?? 'apiKey'}${aliasOf(op) ? ' (aliases)' : ''}`;
        if (!runs.has(name))
          runs.set(name, {
            header: ats ? await partnerHeader(stack, workspace.id, ats) : `x-service-api-key: ${workspace.key}`,
            ids: [],
            phases: aliasOf(op) ? ALIAS_PHASES : PHASES[group],
          });
        runs.get(name)!.ids.push(op.operationId);
      }
      for (const run of runs.values()) await runSchemathesis(stack, run.ids, run.header, run.phases);
    }, 900_000);
  });
}

/** The key of the workspace's for `ats`, as its ATS presents it. */
async function partnerHeader(stack: Stack, workspaceId: string, ats: PartnerAts): Promise<string> {
  const { key } = await stack.stores.partnerKeys.create(workspaceId, ats);
  return `authorization: Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}

/** The reference's example test (api/partners/openapi-setup.ts), the workspace's: its examples then reach past the 404. */
async function withTheExampleTest(stack: Stack, workspaceId: string): Promise<void> {
  const { id, created_at, updated_at, ...test } = EXAMPLE_TEST;
  await stack.db.partnerTests.insertOne({
    ...(test as Omit<PartnerTestDoc, '_id' | 'workspace_id' | 'created_at' | 'updated_at' | 'deleted_at'>),
    _id: id,
    workspace_id: workspaceId,
    created_at: new Date(created_at),
    updated_at: new Date(updated_at),
    deleted_at: null,
  });
}

/** schemathesis over `ids`, each request with `header`; throws unless every generated case passed. */
async function runSchemathesis(stack: Stack, ids: string[], header: string, phases?: string): Promise<void> {
  const operations = ids.length;
  const st = join(provisioned().schemathesisVenv, 'bin', 'st');
  const args = [
    'run',
    `${stack.url}/openapi.json`,
    ...ids.flatMap((id) => ['--include-operation-id', id]),
    '--checks',
    CHECKS.join(','),
    '--seed',
    '42',
    ...(phases ? ['--phases', phases] : []),
    '--max-examples',
    '20',
    '--header',
    header,
    '--generation-database',
    'none',
    // One worker: hypothesis's lambda descriptions are not thread-safe on Python 3.11.
    '--workers',
    '1',
    '--no-color',
  ];
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    // schemathesis keeps a cache in its working directory (.schemathesis/): a scratch one keeps the tree clean.
    const cwd = scratchDir('schemathesis');
    const child = spawn(st, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, output }));
  });
  const summary = output.slice(output.lastIndexOf('SUMMARY'));
  if (code !== 0) throw new Error(`schemathesis exited with ${code}:\n${output.slice(-20_000)}`);
  // Every operation of the group's tags was selected and tested, and every generated case passed.
  expect(summary).toMatch(new RegExp(`Selected: ${operations}/\\d+\\b`));
  expect(summary).toContain(`Tested: ${operations}`);
  expect(summary).toMatch(/(\d+) generated, \1 passed/);
  expect(summary).not.toMatch(/Failures:|Errors:/);
}
