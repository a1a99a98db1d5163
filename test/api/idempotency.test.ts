import { join } from 'node:path';
import { connectDatabase, type Database } from '../../infra/database';
import { adminStores } from '../../composition/admin-stores';
import { keyedId } from '../../infra/ids';
import { waitFor } from '../helpers/wait';
import type { ServiceProcess } from '../../scripts/bench/processes';
import { freePort } from '../../scripts/services';
import { readChecked } from '../helpers/api-contract';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { serviceProcessEnv, startStack, type Stack, startServiceFromBuild } from '../helpers/stack';
import { scratchDir } from '../helpers/scratch';

const V1 = '/api/public/v1';
const calls = (ids: string[]) => ({
  ats_job_id: 'job-idem',
  instructions: 'Ask about availability.',
  candidates: ids.map((id, i) => ({ id, name: 'Ada Lovelace', email: `${id}@example.com`, phone: `+1415555${2000 + i}` })),
});

/** Idempotency-Key on the real stack: replay, another request under a key, and keys of other workspaces. */
describe('Idempotency-Key', () => {
  let stack: Stack;
  let key: string;
  beforeAll(async () => {
    // Questions of new jobs spend from the workspace's AI budget (5 a minute by default); this suite's jobs share one
    // workspace, and in some orders its later tests would wait out the next minute for their questions. The
    // budget has its own suites (ai-rate-limit, abuse-limits).
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '0', AI_RATE_LIMIT: '1000' } });
    key = (await stack.newWorkspace('Acme')).key;
    await stack.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: 'job-idem', name: 'Idem', company_name: 'Acme' } });
  });
  afterAll(() => stack?.stop());

  const post = (path: string, body: unknown, headers: Record<string, string>, apiKey = key) =>
    fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': apiKey, ...headers },
      body: JSON.stringify(body),
    });

  it('answers a retry with the first response, byte for byte, and does the work once', async () => {
    const first = await post(`${V1}/call/initiate`, calls(['r1', 'r2']), { 'Idempotency-Key': 'retry-1' });
    const firstBody = await first.text();
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Sent again with its JSON spaced differently: the same request.
    const again = await fetch(`${stack.url}${V1}/call/initiate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': key, 'Idempotency-Key': '"retry-1"' },
      body: JSON.stringify(calls(['r1', 'r2']), null, 2),
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await again.text()).toBe(firstBody);
    expect(JSON.parse(firstBody).data.calls.map((c: { status: string }) => c.status)).toEqual(['success', 'success']);
    expect(await stack.db.calls.countDocuments({ candidate_id: { $in: ['r1', 'r2'] } })).toBe(2);

    // Without the key, the same request runs again: the candidates have active calls now.
    const unkeyed = await stack.request('POST', `${V1}/call/initiate`, { key, body: calls(['r1', 'r2']) });
    expect(unkeyed.body.data.calls.map((c: { status: string }) => c.status)).toEqual(['failed', 'failed']);

    // A 201 is kept with its status.
    const campaign = { ats_job_id: 'job-idem-2', name: 'Second', company_name: 'Acme' };
    const made = await post(`${V1}/campaigns`, campaign, { 'Idempotency-Key': 'campaign-2' });
    const remade = await post(`${V1}/campaigns`, campaign, { 'Idempotency-Key': 'campaign-2' });
    expect([made.status, remade.status]).toEqual([201, 201]);
    expect(await remade.text()).toBe(await made.text());
  }, 60_000);

  it('refuses a key used with another request (422), in each family shape, and changes nothing', async () => {
    await post(`${V1}/call/initiate`, calls(['m1']), { 'Idempotency-Key': 'mismatch' });
    const other = await readChecked(
      'POST',
      `${V1}/call/initiate`,
      await post(`${V1}/call/initiate`, calls(['m2']), { 'Idempotency-Key': 'mismatch' }),
    );
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ success: false, code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringContaining('another request') });
    expect(await stack.db.calls.countDocuments({ candidate_id: 'm2' })).toBe(0);
    // The same key on another path is another request too.
    const invite = await readChecked(
      'POST',
      `${V1}/interview/invite`,
      await post(`${V1}/interview/invite`, inviteBody([inviteCandidate(0)], { ats_job_id: 'job-idem-invite' }), {
        'Idempotency-Key': 'mismatch',
      }),
    );
    expect(invite.status).toBe(422);
    expect(invite.body).toEqual({ success: false, message: expect.stringContaining('another request') });
    expect(await stack.db.interviews.countDocuments({ ats_job_id: 'job-idem-invite' })).toBe(0);
  });

  it("keeps each workspace's keys its own", async () => {
    const otherKey = (await stack.newWorkspace('Globex')).key;
    await stack.request('POST', `${V1}/campaigns`, {
      key: otherKey,
      body: { ats_job_id: 'job-idem', name: 'Idem', company_name: 'Globex' },
    });
    const mine = await post(`${V1}/call/initiate`, calls(['w1']), { 'Idempotency-Key': 'shared-key' });
    const theirs = await post(`${V1}/call/initiate`, calls(['w1']), { 'Idempotency-Key': 'shared-key' }, otherKey);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    const [a, b] = [await mine.json(), await theirs.json()];
    expect(a.data.calls[0].id).not.toBe(b.data.calls[0].id);
  });

  it('refuses a key that is not 1 to 255 visible characters, and does not keep errors', async () => {
    const bad = await readChecked(
      'POST',
      `${V1}/campaigns`,
      await post(`${V1}/campaigns`, { ats_job_id: 'x', name: 'x' }, { 'Idempotency-Key': 'a b' }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.stringContaining('visible ASCII') }]);
    // A refused request is not kept: fixed and sent again with its key, it runs.
    const refused = await post(`${V1}/call/initiate`, { ...calls(['e1']), instructions: '' }, { 'Idempotency-Key': 'fixed-later' });
    expect(refused.status).toBe(400);
    const fixed = await post(`${V1}/call/initiate`, calls(['e1']), { 'Idempotency-Key': 'fixed-later' });
    expect(fixed.status).toBe(200);
  });
});

/** Two API processes of their own on one database: the key is held and kept across them. */
describe('Idempotency-Key across two API processes', () => {
  let db: Database;
  let key: string;
  let workspaceId: string;
  const running: ServiceProcess[] = [];
  let held: Record<string, string>;
  let free: Record<string, string>;
  beforeAll(async () => {
    const env = await serviceProcessEnv('idem');
    // One process holds every call/initiate before it answers (the chaos suite's hook), as a slow request would.
    held = { ...env, FAULT_HOLD_AT: 'call-initiate:before-response' };
    free = { ...env, PORT: String(await freePort()) };
    db = await connectDatabase(env.MONGODB_URI, env.MONGODB_DB);
    const ws = await adminStores(db).workspaces.create({
      name: 'Two',
      company: 'Two Inc',
      senderFirstName: 'Ada',
      senderLastName: 'Lovelace',
    });
    key = ws.api_key;
    workspaceId = ws.workspace_id;
    const logDir = scratchDir('idem');
    running.push(await startServiceFromBuild('api', held, join(logDir, 'held.log')));
    running.push(await startServiceFromBuild('api', free, join(logDir, 'free.log')));
  }, 180_000);
  afterAll(async () => {
    for (const p of running) await p.kill();
    await db?.db.dropDatabase();
    await db?.close();
  });
  const post = (env: Record<string, string>, path: string, body: unknown, idempotencyKey: string, signal?: AbortSignal) =>
    fetch(`http://127.0.0.1:${env.PORT}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': key, 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(body),
      signal,
    });

  it('tells a twin sent to the other process that the first is still running (409), or that the key is taken (422)', async () => {
    await post(free, `${V1}/campaigns`, { ats_job_id: 'job-idem', name: 'Idem' }, 'campaign');
    const aborted = new AbortController();
    const first = post(held, `${V1}/call/initiate`, calls(['t1']), 'twin', aborted.signal).catch(() => null);
    // Once the held process has claimed the key for its request.
    await waitFor(
      () => db.claims.findOne({ _id: `idempotency/${keyedId('idem', workspaceId, 'twin')}` }),
      (c) => c !== null,
    );
    const twin = await post(free, `${V1}/call/initiate`, calls(['t1']), 'twin');
    const body = await readChecked('POST', `${V1}/call/initiate`, twin);
    expect(body).toMatchObject({
      status: 409,
      body: { success: false, code: 'CONFLICT', message: expect.stringContaining('still being processed') },
    });
    const other = await readChecked('POST', `${V1}/call/initiate`, await post(free, `${V1}/call/initiate`, calls(['t2']), 'twin'));
    expect(other.status).toBe(422);
    aborted.abort();
    await first;
  }, 60_000);

  it('replays on one process the answer the other gave', async () => {
    const body = { ...calls(['x1']), ats_job_id: 'job-across' };
    await post(free, `${V1}/campaigns`, { ats_job_id: 'job-across', name: 'Across' }, 'campaign-across');
    const first = await post(free, `${V1}/call/initiate`, body, 'across');
    expect(first.status).toBe(200);
    // The held process would hold a call/initiate it ran for good: the kept answer comes before it would run.
    const replayed = await post(held, `${V1}/call/initiate`, body, 'across', AbortSignal.timeout(10_000));
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.text()).toBe(await first.text());
  });
});
