import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStack, TEST_PERSON_HASH_SECRET, type Stack } from '../helpers/stack';

/**
 * README's quickstart, run as written: every ```sh block between the quickstart markers goes to one bash
 * session, in order, against a running stack (API, worker, database, Temporal), and what each block prints
 * must match its `# =>` lines, where `…` stands for anything. The one change is the API address, since the
 * stack listens on a port of its own.
 */
const ROOT = join(__dirname, '..', '..');

interface Block {
  script: string;
  expected: string[];
}

function quickstartBlocks(): Block[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('<!-- quickstart -->'), readme.indexOf('<!-- /quickstart -->'));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, body]) => {
    const lines = body.trimEnd().split('\n');
    return {
      script: lines.filter((l) => !l.startsWith('# =>')).join('\n'),
      expected: lines.filter((l) => l.startsWith('# =>')).map((l) => l.slice('# => '.length)),
    };
  });
}

const pattern = (line: string) => new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/…/g, '.+?')}$`);

/** One bash session; `run` sends a block and resolves with what it printed once it is done. */
function shell(env: NodeJS.ProcessEnv): { run(script: string): Promise<{ out: string[]; code: number; err: string }>; close(): void } {
  const bash: ChildProcessWithoutNullStreams = spawn('bash', ['--noprofile', '--norc'], { cwd: ROOT, env });
  let out = '';
  let err = '';
  bash.stdout.on('data', (d: Buffer) => (out += d.toString()));
  bash.stderr.on('data', (d: Buffer) => (err += d.toString()));
  let n = 0;
  return {
    async run(script) {
      const marker = `__block_${++n}_done__`;
      out = '';
      err = '';
      bash.stdin.write(`${script}\necho "${marker} $?"\n`);
      while (!out.includes(marker)) await new Promise((r) => setTimeout(r, 50));
      const [printed, status] = out.split(marker);
      return { out: printed.split('\n').filter(Boolean), code: Number(status.trim()), err };
    },
    close: () => bash.kill(),
  };
}

describe("README's quickstart", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { PUBLIC_BASE_URL: 'http://localhost:3000' } });
  });
  afterAll(() => stack?.stop());

  it('prints what README says, step by step, and the call it placed ran as a workflow', async () => {
    const blocks = quickstartBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const { config } = stack;
    // The admin CLI reaches the stack as `npm run dev`'s: its database, Temporal, queue and person hash secret.
    const session = shell({
      ...process.env,
      MONGODB_URI: config.MONGODB_URI,
      MONGODB_DB: config.MONGODB_DB,
      TEMPORAL_ADDRESS: config.TEMPORAL_ADDRESS,
      TEMPORAL_NAMESPACE: config.TEMPORAL_NAMESPACE,
      TEMPORAL_TASK_QUEUE: config.TEMPORAL_TASK_QUEUE,
      PERSON_HASH_SECRET: TEST_PERSON_HASH_SECRET,
      SIMULATOR_CALL_SECONDS: String(config.SIMULATOR_CALL_SECONDS),
    });
    try {
      for (const block of blocks) {
        const script = block.script.replace('export API=http://localhost:3000', `export API=${stack.url}`);
        const { out, code, err } = await session.run(script);
        expect({ script, code, err: code === 0 ? '' : err }).toEqual({ script, code: 0, err: '' });
        expect({ script, out }).toEqual({ script, out: block.expected.map((l) => expect.stringMatching(pattern(l))) });
      }
      const { out } = await session.run('echo "$CALL"');
      const described = await stack.temporal.workflow.getHandle(`call-${out[0]}`).describe();
      expect(described.status.name).toBe('COMPLETED');
    } finally {
      session.close();
    }
  }, 180_000);
});
