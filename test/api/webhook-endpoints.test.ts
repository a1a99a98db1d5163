import { Webhook } from 'standardwebhooks';
import { startStack, type Stack } from '../helpers/stack';
import { webhookBench } from '../helpers/webhook-receiver';
import { waitFor } from '../helpers/wait';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhooks/schema';

const V1 = '/api/public/v1';

/**
 * Webhook endpoints on the real stack: registration and its refusals (SSRF among them), the secret and its
 * rotation, tries again after failures with the deliveries log, a retry by hand, and 410 Gone.
 */
describe('webhook endpoints and deliveries on the real stack', () => {
  const bench = webhookBench();
  const { newPath, received, verified, register } = bench;

  it('registers an endpoint with its secret shown once, lists it without, and hides it from another workspace', async () => {
    const ws = await bench.stack.newWorkspace('Globex');
    const other = await bench.stack.newWorkspace('Initech');
    const url = `${bench.hooks.stub.url}${newPath()}`;
    const created = await register(ws.key, { url, description: 'Production ATS' });
    expect(created).toEqual({
      id: expect.stringMatching(/^whk_/),
      url,
      events: [...WEBHOOK_EVENT_TYPES],
      description: 'Production ATS',
      status: 'enabled',
      disabled_reason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      created_at: expect.any(String),
    });
    const listed = await bench.stack.request('GET', `${V1}/webhooks`, { key: ws.key });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: created.id, url })]);
    expect(JSON.stringify(listed.body)).not.toContain(created.secret);
    const one = await bench.stack.request('GET', `${V1}/webhooks/${created.id}`, { key: ws.key });
    expect(one.body.data).not.toHaveProperty('secret');

    for (const [method, path] of [
      ['GET', `${V1}/webhooks/${created.id}`],
      ['DELETE', `${V1}/webhooks/${created.id}`],
      ['POST', `${V1}/webhooks/${created.id}/rotate-secret`],
      ['GET', `${V1}/webhooks/${created.id}/deliveries`],
    ]) {
      const res = await bench.stack.request(method, path, { key: other.key });
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
    }
    expect((await bench.stack.request('GET', `${V1}/webhooks`, { key: other.key })).body.data).toEqual([]);

    const deleted = await bench.stack.request('DELETE', `${V1}/webhooks/${created.id}`, { key: ws.key });
    expect(deleted.body).toEqual({ success: true, data: { id: created.id, deleted: true } });
    expect((await bench.stack.request('GET', `${V1}/webhooks`, { key: ws.key })).body.data).toEqual([]);
  });

  it('refuses a bad registration with every field named, and stores nothing', async () => {
    const ws = await bench.stack.newWorkspace('Hooli');
    const bad = await bench.stack.request('POST', `${V1}/webhooks`, {
      key: ws.key,
      body: { url: 'ftp://example.com/x', events: ['call.completed', 'call.teleported'], extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['events.1', 'extra']);
    for (const body of [
      { url: 'ftp://example.com/x' },
      { url: 'not a url' },
      { url: 'https://user:pw@example.com/' },
      { url: `${bench.hooks.stub.url}/x`, events: [] },
    ]) {
      const res = await bench.stack.request('POST', `${V1}/webhooks`, { key: ws.key, body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await bench.stack.request('GET', `${V1}/webhooks`, { key: ws.key })).body.data).toEqual([]);
  });

  it('tries a failing receiver again with the same event id, and logs every try', async () => {
    const ws = await bench.stack.newWorkspace('Cyberdyne');
    const path = newPath();
    bench.hooks.answers.set(path, (_req, n) => (n <= 1 ? { status: 503, body: 'busy' } : { status: 204 }));
    const hook = await register(ws.key, { url: `${bench.hooks.stub.url}${path}`, events: ['interview.invited'] });
    await bench.stack.request('POST', `${V1}/interview/invite`, {
      key: ws.key,
      body: inviteBody([inviteCandidate(1)], { ats_job_id: 'job-retry' }),
    });
    const tries = await waitFor(
      async () => received(path),
      (r) => r.length === 2,
      30_000,
    );
    expect(tries[0].headers['webhook-id']).toBe(tries[1].headers['webhook-id']);
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(4_500);
    // A later try carries its own time and a signature of it.
    expect(verified(path, hook.secret)).toHaveLength(2);
    const log = await waitFor(
      async () => (await bench.stack.request('GET', `${V1}/webhooks/${hook.id}/deliveries`, { key: ws.key })).body.data,
      (d) => d[0]?.status === 'delivered',
    );
    expect(log).toEqual([
      expect.objectContaining({
        event_id: tries[0].headers['webhook-id'],
        event_type: 'interview.invited',
        status: 'delivered',
        attempts: 2,
        status_code: 204,
        error: null,
      }),
    ]);
    const pending = await bench.stack.request('GET', `${V1}/webhooks/${hook.id}/deliveries?status=pending`, { key: ws.key });
    expect(pending.body.data).toEqual([]);

    // Sent again by hand: once more, with the same id.
    const again = await bench.stack.request('POST', `${V1}/webhooks/${hook.id}/deliveries/${log[0].id}/retry`, { key: ws.key });
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ id: log[0].id, status: 'pending' });
    const third = await waitFor(
      async () => received(path),
      (r) => r.length === 3,
    );
    expect(third[2].headers['webhook-id']).toBe(tries[0].headers['webhook-id']);
    const missing = await bench.stack.request('POST', `${V1}/webhooks/${hook.id}/deliveries/nope/retry`, { key: ws.key });
    expect(missing.status).toBe(404);
  }, 60_000);

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const ws = await bench.stack.newWorkspace('Tyrell');
    const path = newPath();
    const hook = await register(ws.key, { url: `${bench.hooks.stub.url}${path}`, events: ['interview.invited'] });
    const rotated = await bench.stack.request('POST', `${V1}/webhooks/${hook.id}/rotate-secret`, { key: ws.key });
    expect(rotated.status).toBe(200);
    const { secret, previous_secret_expires_at } = rotated.body.data;
    expect(secret).not.toBe(hook.secret);
    expect(Date.parse(previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    await bench.stack.request('POST', `${V1}/interview/invite`, {
      key: ws.key,
      body: inviteBody([inviteCandidate(2)], { ats_job_id: 'job-rotate' }),
    });
    await waitFor(
      async () => received(path),
      (r) => r.length === 1,
      30_000,
    );
    expect(received(path)[0].headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    // Each secret verifies on its own.
    expect(verified(path, secret, hook.secret)).toHaveLength(1);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
        received(path)[0].raw,
        received(path)[0].headers as Record<string, string>,
      ),
    ).toThrow();
  }, 60_000);

  it('stops signing with the previous secret at once when told it leaked (expire_previous)', async () => {
    const ws = await bench.stack.newWorkspace('Leaky');
    const path = newPath();
    const hook = await register(ws.key, { url: `${bench.hooks.stub.url}${path}`, events: ['interview.invited'] });
    const bad = await bench.stack.request('POST', `${V1}/webhooks/${hook.id}/rotate-secret`, {
      key: ws.key,
      body: { expire_previous: 'yes' },
    });
    expect([bad.status, bad.body.errors]).toEqual([400, [{ field: 'expire_previous', message: 'must be a boolean' }]]);
    const before = Date.now();
    const rotated = await bench.stack.request('POST', `${V1}/webhooks/${hook.id}/rotate-secret`, {
      key: ws.key,
      body: { expire_previous: true },
    });
    expect(rotated.status).toBe(200);
    const { secret, previous_secret_expires_at } = rotated.body.data;
    expect(Date.parse(previous_secret_expires_at)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(previous_secret_expires_at)).toBeLessThanOrEqual(Date.now());
    await bench.stack.request('POST', `${V1}/interview/invite`, {
      key: ws.key,
      body: inviteBody([inviteCandidate(4)], { ats_job_id: 'job-leaked' }),
    });
    await waitFor(
      async () => received(path),
      (r) => r.length === 1,
      30_000,
    );
    // One signature, the new secret's; the leaked one verifies nothing.
    expect(received(path)[0].headers['webhook-signature']).toMatch(/^v1,\S+$/);
    expect(() => new Webhook(secret).verify(received(path)[0].raw, received(path)[0].headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(hook.secret).verify(received(path)[0].raw, received(path)[0].headers as Record<string, string>)).toThrow();
  }, 60_000);

  it('keeps no secret in a stored Idempotency-Key answer: a replay shows null', async () => {
    const ws = await bench.stack.newWorkspace('Replayed');
    const url = `${bench.hooks.stub.url}${newPath()}`;
    const send = (path: string, body: unknown, key: string) =>
      bench.stack.request('POST', path, { key: ws.key, body, headers: { 'idempotency-key': key } });
    const first = await send(`${V1}/webhooks`, { url, events: ['interview.invited'] }, 'create-1');
    expect(first.body.data.secret).toMatch(/^whsec_/);
    const replay = await send(`${V1}/webhooks`, { url, events: ['interview.invited'] }, 'create-1');
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(replay.body.data).toEqual({ ...first.body.data, secret: null });

    const rotated = await send(`${V1}/webhooks/${first.body.data.id}/rotate-secret`, {}, 'rotate-1');
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    const again = await send(`${V1}/webhooks/${first.body.data.id}/rotate-secret`, {}, 'rotate-1');
    expect([again.headers.get('idempotent-replayed'), again.body.data]).toEqual(['true', { ...rotated.body.data, secret: null }]);
    // Nothing kept anywhere holds either secret.
    const kept = JSON.stringify(await bench.stack.db.idempotencyKeys.find({}).toArray());
    expect(kept).not.toContain(first.body.data.secret);
    expect(kept).not.toContain(rotated.body.data.secret);
  }, 60_000);

  it('disables an endpoint whose receiver answers 410 Gone, and sends it nothing more', async () => {
    const ws = await bench.stack.newWorkspace('Wonka');
    const path = newPath();
    bench.hooks.answers.set(path, () => ({ status: 410 }));
    const hook = await register(ws.key, { url: `${bench.hooks.stub.url}${path}`, events: ['interview.invited'] });
    await bench.stack.request('POST', `${V1}/interview/invite`, {
      key: ws.key,
      body: inviteBody([inviteCandidate(3)], { ats_job_id: 'job-gone' }),
    });
    const endpoint = await waitFor(
      async () => (await bench.stack.request('GET', `${V1}/webhooks/${hook.id}`, { key: ws.key })).body.data,
      (e) => e.status === 'disabled',
      30_000,
    );
    expect(endpoint.disabled_reason).toMatch(/410 Gone/);
    const log = (await bench.stack.request('GET', `${V1}/webhooks/${hook.id}/deliveries`, { key: ws.key })).body.data;
    expect(log).toEqual([expect.objectContaining({ status: 'failed', status_code: 410, attempts: 1 })]);
    const retry = await bench.stack.request('POST', `${V1}/webhooks/${hook.id}/deliveries/${log[0].id}/retry`, { key: ws.key });
    expect(retry.status).toBe(409);

    await bench.stack.request('POST', `${V1}/interview/invite`, {
      key: ws.key,
      body: inviteBody([inviteCandidate(4)], { ats_job_id: 'job-gone' }),
    });
    await waitFor(
      async () => (await bench.stack.db.interviews.countDocuments({ workspace_id: ws.id, status: 'invited' })) as number,
      (n) => n === 2,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    expect(received(path)).toHaveLength(1);
  }, 60_000);
});

describe('webhook URLs checked against SSRF', () => {
  let stack: Stack;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
    key = (await stack.newWorkspace('Careful')).key;
  });
  afterAll(() => stack?.stop());

  it.each([
    ['plain http', 'http://example.com/hook', 'must be an https URL'],
    ['a private address', 'https://10.1.2.3/hook', 'is a private address'],
    ['a private address in IPv6', 'https://[fd12:3456::1]/hook', 'is a private address'],
    ['a loopback address', 'https://127.0.0.1/hook', 'is a loopback address'],
    ['loopback in IPv6', 'https://[::1]/hook', 'is a loopback address'],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook', 'is a loopback address'],
    ['a link-local address', 'https://169.254.10.1/hook', 'is a link-local address'],
    ['a name that resolves to loopback', 'https://localhost/hook', 'host localhost is not allowed'],
    ['a port other than 443 and 80', 'https://hooks.example.com:8443/hook', 'use port 443 (or 80)'],
    ['NAT64 of a private address', 'https://[64:ff9b::a00:1]/hook', 'is a private address'],
    ['6to4 of loopback', 'https://[2002:7f00:1::]/hook', 'is a loopback address'],
    ["Azure's wire server", 'https://168.63.129.16/', 'is a cloud metadata address'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data/', 'is a cloud metadata address'],
    ["AWS's IPv6 metadata address", 'https://[fd00:ec2::254]/', 'is a cloud metadata address'],
  ])('refuses %s', async (_what, url, message) => {
    const res = await stack.request('POST', `${V1}/webhooks`, { key, body: { url } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'url', message: expect.stringContaining(message) }]);
    // It says "not allowed", and never where a name resolves.
    if (new URL(url).hostname === 'localhost') expect(res.body.errors[0].message).not.toMatch(/127\.0\.0\.1|::1\b|loopback/);
  });

  it('refuses the metadata address even where private addresses are allowed', async () => {
    const open = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    try {
      const k = (await open.newWorkspace('Open')).key;
      const res = await open.request('POST', `${V1}/webhooks`, { key: k, body: { url: 'http://169.254.169.254/latest/meta-data/' } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toContain('is a cloud metadata address');
      const local = await open.request('POST', `${V1}/webhooks`, { key: k, body: { url: 'http://localhost:9/hook' } });
      expect(local.status).toBe(201);
    } finally {
      await open.stop();
    }
  });
});
