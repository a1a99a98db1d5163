import { startStack, uniqueName, type Stack } from '../helpers/stack';
import { runAdmin } from '../helpers/admin-cli';
import { suppressionStore } from '../../stores/suppressions';
import { ConfigError, loadConfig } from '../../infra/config';

const V1 = '/api/public/v1';
const OLD = 'first-operator-secret-0123456789abcdefghij';
const NEW = 'second-operator-secret-0123456789abcdefghi';

/**
 * The secret that keys people's hashes comes from the operator, never the database, and carries a version:
 * a new one goes in front, everything filed under the older one keeps matching, `admin people:rekey` files
 * again what it can, and nothing is forgotten. Real API processes on one database, one secret set after another.
 */
describe('person hash secrets', () => {
  const stacks: Stack[] = [];
  /** Each test has a database of its own, shared by the processes it starts one after another. */
  let database = '';
  beforeEach(() => {
    database = uniqueName('person-keys');
  });
  // `worker`: a stack that erases runs the erasure's workflow.
  const stackWith = async (env: Record<string, string>, worker = false) => {
    const stack = await startStack({ worker, env: { MONGODB_DB: database, PERSON_HASH_SECRET: '', ...env } });
    stacks.push(stack);
    return stack;
  };
  afterAll(async () => {
    for (const s of stacks.reverse()) await s.stop();
  });
  const admin = (env: Record<string, string>, ...args: string[]) =>
    runAdmin(
      { MONGODB_URI: process.env.TEST_MONGODB_URI, MONGODB_DB: database, TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS, ...env },
      ...args,
    );
  const listed = async (stack: Stack, key: string, phone: string) =>
    (await stack.request('GET', `${V1}/suppressions?phone=${encodeURIComponent(phone)}`, { key })).body.data.map(
      (e: { source: string }) => e.source,
    );

  it('is required in production, and no key of people’s hashes is kept in the database', async () => {
    const base = { MONGODB_URI: 'mongodb://db', TEMPORAL_ADDRESS: 't:7233', NODE_ENV: 'production' };
    expect(() => loadConfig(base)).toThrow(/PERSON_HASH_SECRET is required in production/);
    expect(() => loadConfig({ ...base, PERSON_HASH_SECRETS: `1:${OLD},1:${NEW}` })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PERSON_HASH_SECRETS: `1:${OLD},1:${NEW}` })).not.toThrow(new RegExp(OLD));
    expect(loadConfig({ ...base, PERSON_HASH_SECRET: OLD }).PERSON_HASH_SECRET).toBe(OLD);
    // Its earlier name is read too; given both, they must agree.
    expect(loadConfig({ ...base, CONTACT_HASH_SECRET: OLD }).PERSON_HASH_SECRET).toBe(OLD);
    expect(loadConfig({ ...base, CONTACT_HASH_SECRETS: `1:${OLD}` }).PERSON_HASH_SECRETS).toBe(`1:${OLD}`);
    expect(loadConfig({ ...base, CONTACT_HASH_SECRET: OLD, PERSON_HASH_SECRET: OLD }).PERSON_HASH_SECRET).toBe(OLD);
    expect(() => loadConfig({ ...base, CONTACT_HASH_SECRET: OLD, PERSON_HASH_SECRET: NEW })).toThrow(
      /CONTACT_HASH_SECRET and PERSON_HASH_SECRET differ/,
    );
    expect(() => loadConfig({ ...base, CONTACT_HASH_SECRET: OLD, PERSON_HASH_SECRET: NEW })).not.toThrow(new RegExp(OLD));

    const first = await stackWith({ PERSON_HASH_SECRET: OLD });
    const { key } = await first.newWorkspace('Keyco');
    expect((await first.request('POST', `${V1}/suppressions`, { key, body: { phone: '+14155550140' } })).status).toBe(201);
    await first.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: 'job-keys', name: 'Keys' } });
    const call = await first.request('POST', `${V1}/call/initiate`, {
      key,
      body: {
        ats_job_id: 'job-keys',
        instructions: 'Hi.',
        candidates: [{ id: 'k1', name: 'Kim Key', email: 'kim@example.com', phone: '+14155550141' }],
      },
    });
    expect(call.status).toBe(200);
    const settings = await first.db.settings.find({}).toArray();
    expect(settings.map((s) => s._id)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/suppression-ledger-key|person-index-key|dial_cap_secret|email_claim_secret/)]),
    );
    // A database that had no workspace when this release first looked holds no hash of the earlier label:
    // it is recorded, and no lookup reads that label here (test/api/upgrade-person-keys.test.ts: the others).
    expect(settings.find((s) => s._id === 'person-key-labels')?.value).toBe('current-only');
    // Every hash names its secret's version.
    for (const k of await first.db.suppressionKeys.find({}).toArray()) expect(k._id).toMatch(/^sk1_/);
    for (const k of await first.db.personIndex.find({}).toArray()) expect(k._id).toMatch(/^pi1_/);
  });

  it('keeps matching under an older secret, files again under the newest with people:rekey, and forgets nothing', async () => {
    const before = await stackWith({ PERSON_HASH_SECRET: OLD }, true);
    const { key, id: workspaceId } = await before.newWorkspace('Rotateco');
    expect((await before.request('POST', `${V1}/suppressions`, { key, body: { phone: '+14155550150', reason: 'asked' } })).status).toBe(
      201,
    );
    // An erasure's entry keeps only its hashes: it cannot be made again under a new secret.
    expect((await before.request('POST', `${V1}/candidates/erase`, { key, body: { phone: '+14155550151' } })).status).toBe(200);

    const both = { PERSON_HASH_SECRETS: `2:${NEW},1:${OLD}` };
    const rotated = await stackWith(both);
    expect(await listed(rotated, key, '+14155550150')).toEqual(['api']);
    expect(await listed(rotated, key, '+14155550151')).toEqual(['erasure']);

    const run = await admin(both, 'people:rekey', '--workspace', workspaceId);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).suppressions).toEqual({ rekeyed: 1, current: 0, hashes_only: 1 });
    // Again: nothing left to file.
    expect(JSON.parse((await admin(both, 'people:rekey', '--workspace', workspaceId)).stdout).suppressions).toEqual({
      rekeyed: 0,
      current: 1,
      hashes_only: 1,
    });
    expect(await listed(rotated, key, '+14155550150')).toEqual(['api']);
    expect(await listed(rotated, key, '+14155550151')).toEqual(['erasure']);

    // The re-keyed entry matches under the new secret alone; the erasure's needs its own secret kept.
    const newOnly = await stackWith({ PERSON_HASH_SECRETS: `2:${NEW}` });
    expect(await listed(newOnly, key, '+14155550150')).toEqual(['api']);
    expect(await listed(newOnly, key, '+14155550151')).toEqual([]);
  });

  it("still matches what was filed under the database's own key of earlier releases", async () => {
    const stack = await stackWith({ PERSON_HASH_SECRET: NEW });
    const { key, id } = await stack.newWorkspace('Legacyco');
    // As an earlier release filed it: keyed with a random key it made and kept in `settings`.
    const legacy = suppressionStore(stack.db, { workspaces: stack.stores.workspaces });
    await legacy.add({ workspaceId: id, phone: '+14155550160', channels: ['voice'], source: 'api' });
    expect(await stack.db.settings.findOne({ _id: 'suppression-ledger-key' })).not.toBeNull();
    // A process started after it (this one read the settings before the key existed) finds the entry.
    const later = await stackWith({ PERSON_HASH_SECRET: NEW });
    expect(await listed(later, key, '+14155550160')).toEqual(['api']);
    const run = await admin({ PERSON_HASH_SECRET: NEW }, 'people:rekey', '--workspace', id);
    expect(JSON.parse(run.stdout).suppressions).toEqual({ rekeyed: 1, current: 0, hashes_only: 0 });
    expect(await listed(later, key, '+14155550160')).toEqual(['api']);
  });
});
