import { connectDatabase, type Database } from '../../infra/database';
import { partnerKeyStore } from '../../stores/partner-keys';
import { configuredSecrets } from '../../stores/person-keys';
import { uniqueName } from '../helpers/stack';

/**
 * The ATS doors' keys and the customer's sealed Ashby key, on the real database. The sealed form is a stored
 * format (infra/sealed.ts): FIXTURE was written by the release that introduced it (`seal` under the secret
 * below, as version 3, with the label `hiring-integration/sealed-secrets/v1`), and every later release opens it.
 */
const FIXTURE = {
  secret: 'fixture-sealing-secret--0123456789abcdef',
  sealed: 's1.3.b87CaMhTmCg4lPNU.EaIlnoRmM9QCTAHJarhp9-lXFxKy8oPv7Ao.N7WeiC6QxdV55XIr637QNA',
  plain: 'ashby-fixture-api-key-0001',
};

describe('partner keys', () => {
  let db: Database;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('partnerkeys'));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });
  const store = (PERSON_HASH_SECRETS?: string) => partnerKeyStore(db, configuredSecrets({ PERSON_HASH_SECRETS }));
  const keep = (workspace: string, sealed: string) =>
    db.partnerSecrets.insertOne({
      _id: `${workspace}/ashby-api-key`,
      workspace_id: workspace,
      sealed,
      last4: '0001',
      updated_at: new Date(),
    });

  it('opens the sealed key the first release wrote, under its secret, after a newer secret is added', async () => {
    await keep('ws_fixture', FIXTURE.sealed);
    expect(await store(`3:${FIXTURE.secret}`).secret('ws_fixture', 'ashby')).toBe(FIXTURE.plain);
    const rotated = store(`4:a-newer-secret--0123456789abcdef,3:${FIXTURE.secret}`);
    expect(await rotated.secret('ws_fixture', 'ashby')).toBe(FIXTURE.plain);
    expect(await rotated.openSealed(FIXTURE.sealed)).toBe(FIXTURE.plain);
    // What is sealed now is sealed under the newest secret, and never kept in the clear.
    await rotated.putSecret('ws_rotated', 'ashby', 'ashby-live-key-9876');
    const doc = await db.partnerSecrets.findOne({ _id: 'ws_rotated/ashby-api-key' });
    expect(doc).toMatchObject({ last4: '9876', sealed: expect.stringMatching(/^s1\.4\./) });
    expect(JSON.stringify(doc)).not.toContain('ashby-live-key');
    expect(await rotated.secret('ws_rotated', 'ashby')).toBe('ashby-live-key-9876');
  });

  it('opens what was sealed under the database’s own key once an operator configures a secret', async () => {
    await store().putSecret('ws_unconfigured', 'ashby', 'ashby-key-before-a-secret');
    expect(await store('1:configured-later--0123456789abcdef').secret('ws_unconfigured', 'ashby')).toBe('ashby-key-before-a-secret');
  });

  it('refuses a value sealed under a secret no longer configured, or changed', async () => {
    await keep('ws_gone', FIXTURE.sealed);
    await expect(store('5:another-secret--0123456789abcdef').secret('ws_gone', 'ashby')).rejects.toThrow(/no longer configured/);
    expect(await store('5:another-secret--0123456789abcdef').openSealed(FIXTURE.sealed)).toBeNull();
    // One character of the ciphertext changed: the tag no longer matches.
    const parts = FIXTURE.sealed.split('.');
    parts[3] = (parts[3][0] === 'A' ? 'B' : 'A') + parts[3].slice(1);
    const changed = parts.join('.');
    await expect(store(`3:${FIXTURE.secret}`).openSealed(changed)).rejects.toThrow();
  });

  it('keeps a key only as its hash, lets it in until revoked or replaced, and never lets in another ATS’s key', async () => {
    const keys = store();
    const t0 = new Date(Date.UTC(2026, 10, 29, 9));
    const first = await keys.create('ws_keys', 'greenhouse', undefined, t0);
    expect(first.key).toMatch(/^ghk_/);
    expect(JSON.stringify(await db.partnerCredentials.find({ workspace_id: 'ws_keys' }).toArray())).not.toContain(first.key);
    expect(await keys.authenticate('ashby', first.key, t0)).toBeNull();
    expect(await keys.authenticate('greenhouse', `${first.key}x`, t0)).toBeNull();
    // A rotation: the earlier key works for the overlap, then stops; the new one goes on.
    const second = await keys.create('ws_keys', 'greenhouse', 24, t0);
    const later = (hours: number) => new Date(t0.getTime() + hours * 3_600_000);
    const workspaceOf = async (key: string, at: Date) => (await keys.authenticate('greenhouse', key, at))?._id ?? null;
    await db.workspaces.insertOne({ _id: 'ws_keys', name: 'Keys' } as never);
    expect(await workspaceOf(first.key, later(23))).toBe('ws_keys');
    expect(await workspaceOf(first.key, later(24))).toBeNull();
    expect(await workspaceOf(second.key, later(24))).toBe('ws_keys');
    expect(await keys.revoke('ws_keys', 'greenhouse', second.doc.credential_id, later(25))).toBe(true);
    expect(await workspaceOf(second.key, later(25))).toBeNull();
    expect(await keys.revoke('ws_other', 'greenhouse', first.doc.credential_id)).toBe(false);
  });
});
