import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { connectDatabase, type Database } from '../../infra/database';
import { TEST_PERSON_HASH_SECRET, uniqueName } from './stack';

export interface AdminRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the admin CLI (scripts/admin.ts) as a process of its own with only `env` (and PATH), the way an
 * operator runs it, without blocking the test's own event loop (a stack may run in it). It runs from the
 * sources the run transpiled once (test/global-setup.ts), so it starts without tsx's loader.
 */
export const runAdmin = (env: Record<string, string | undefined>, ...args: string[]): Promise<AdminRun> =>
  runAdminWithInput(env, undefined, ...args);

/** runAdmin, with `input` written to the command's stdin (a key an operator pastes there). */
export function runAdminWithInput(
  env: Record<string, string | undefined>,
  input: string | undefined,
  ...args: string[]
): Promise<AdminRun> {
  const admin = process.env.TEST_ADMIN_CLI;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...(admin ? [admin] : ['--import', 'tsx', join(__dirname, '../../scripts/admin.ts')]), ...args],
      { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 30_000 },
      (err, stdout, stderr) => {
        const status = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ status, stdout: stdout.trim(), stderr });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/**
 * The admin CLI on a database of its own, for a file of tests (its hooks registered in the calling file):
 * `admin(...)` runs a command with the settings an operator gives it, `newWorkspace` makes one with it, and
 * `db` reads what it wrote.
 */
export function adminCliDatabase() {
  const env = {
    MONGODB_URI: process.env.TEST_MONGODB_URI,
    MONGODB_DB: uniqueName('admin'),
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
    // The services' own secret, as an operator gives the admin CLI the service's settings.
    PERSON_HASH_SECRET: TEST_PERSON_HASH_SECRET,
  };
  const state = { db: undefined as unknown as Database };
  beforeAll(async () => {
    state.db = await connectDatabase(process.env.TEST_MONGODB_URI!, env.MONGODB_DB);
  });
  afterAll(async () => {
    await state.db?.db.dropDatabase();
    await state.db?.close();
  });
  const admin = (...args: string[]) => runAdmin(env, ...args);
  return {
    env,
    admin,
    /** `admin`, with `input` on the command's stdin. */
    adminWithInput: (input: string, ...args: string[]) => runAdminWithInput(env, input, ...args),
    get db() {
      return state.db;
    },
    /** A new workspace's id, made with the CLI. */
    newWorkspace: async (name: string): Promise<string> =>
      JSON.parse(
        (await admin('workspace:create', '--name', name, '--company', `${name} Co`, '--sender-first-name', 'A', '--sender-last-name', 'B'))
          .stdout,
      ).workspace_id,
  };
}
