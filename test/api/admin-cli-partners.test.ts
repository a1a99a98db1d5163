import { partnerKeyStore } from '../../stores/partner-keys';
import { configuredSecrets } from '../../stores/person-keys';
import { adminCliDatabase } from '../helpers/admin-cli';
import { TEST_PERSON_HASH_SECRET } from '../helpers/stack';

/** The admin CLI's commands for the ATS doors (docs/ats/): keys made, listed, rotated and revoked; the Ashby key from stdin. */
describe('admin CLI: ATS partners', () => {
  const cli = adminCliDatabase();
  const { admin, adminWithInput, newWorkspace } = cli;
  const keys = () => partnerKeyStore(cli.db, configuredSecrets({ PERSON_HASH_SECRET: TEST_PERSON_HASH_SECRET }));

  it('makes a key shown once, lists it without the key, rotates with an overlap and revokes', async () => {
    const ws = await newWorkspace('Partners');
    const made = await admin('partner-credentials:create', '--workspace', ws, '--ats', 'greenhouse');
    expect(made.status).toBe(0);
    const first = JSON.parse(made.stdout);
    expect(first).toMatchObject({
      id: expect.stringMatching(/^pcr_/),
      ats: 'greenhouse',
      key: expect.stringMatching(/^ghk_/),
      revoked_at: null,
    });
    expect((await keys().authenticate('greenhouse', first.key))?._id).toBe(ws);

    const rotated = JSON.parse(
      (await admin('partner-credentials:create', '--workspace', ws, '--ats', 'greenhouse', '--replace-after-hours', '24')).stdout,
    );
    const listed = await admin('partner-credentials:list', '--workspace', ws, '--ats', 'greenhouse');
    expect(listed.stdout).not.toContain(first.key);
    expect(JSON.parse(listed.stdout).credentials).toEqual([
      expect.objectContaining({ id: first.id, expires_at: expect.any(String) }),
      expect.objectContaining({ id: rotated.id, expires_at: null }),
    ]);

    expect(await admin('partner-credentials:revoke', '--workspace', ws, '--ats', 'greenhouse', '--id', first.id)).toMatchObject({
      status: 0,
      stdout: '{"revoked":true}',
    });
    expect(await keys().authenticate('greenhouse', first.key)).toBeNull();
    expect((await admin('partner-credentials:revoke', '--workspace', ws, '--ats', 'ashby', '--id', rotated.id)).status).toBe(1);
  });

  it("keeps the customer's Ashby key from stdin, sealed, printing its last four characters only", async () => {
    const ws = await newWorkspace('Ashby keys');
    const run = await adminWithInput('ashby-secret-from-stdin-4242\n', 'partners:ashby-api-key', '--workspace', ws);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ set: true, last4: '4242', updated_at: expect.any(String) });
    expect(run.stdout + run.stderr).not.toContain('ashby-secret-from-stdin');
    expect(await keys().secret(ws, 'ashby')).toBe('ashby-secret-from-stdin-4242');
  });

  it('explains a wrong ATS, a wrong overlap or an unknown workspace, and writes nothing', async () => {
    const ws = await newWorkspace('Wrong');
    expect(await admin('partner-credentials:create', '--workspace', ws, '--ats', 'workday')).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('--ats takes greenhouse or ashby'),
    });
    expect(await admin('partner-credentials:create', '--workspace', ws, '--ats', 'ashby', '--replace-after-hours', '9999')).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('--replace-after-hours'),
    });
    expect(await admin('partner-credentials:create', '--workspace', 'ws_nope', '--ats', 'ashby')).toMatchObject({
      status: 1,
      stderr: 'error: no such workspace\n',
    });
    expect(await adminWithInput('\n', 'partners:ashby-api-key', '--workspace', ws)).toMatchObject({ status: 2 });
    expect(await cli.db.partnerCredentials.countDocuments({ workspace_id: ws })).toBe(0);
    expect(await cli.db.partnerSecrets.countDocuments({ workspace_id: ws })).toBe(0);
  });
});
