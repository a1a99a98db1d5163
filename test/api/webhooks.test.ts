import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../../scripts/services';
import { startStack, type Stack } from '../helpers/stack';
import { startHttpStub, type HttpStub, type RecordedRequest, type StubReply } from '../helpers/http-stub';
import { waitFor } from '../helpers/wait';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhooks/schema';
import { interviewNotifier } from '../../composition/interview-signals';

const V1 = '/api/public/v1';
const ROOT = join(__dirname, '..', '..');

/**
 * Webhooks on the real stack (API, worker, database, Temporal) with a local receiver. Every event is
 * verified with the `standardwebhooks` package, as an ATS would, not with the service's own code.
 */
describe('webhooks on the real stack', () => {
  let stack: Stack;
  let receiver: HttpStub;
  /** How each receiver path answers; 200 unless a test says otherwise. */
  const answers = new Map<string, (req: RecordedRequest, n: number) => StubReply>();
  let paths = 0;
  beforeAll(async () => {
    receiver = await startHttpStub((req) => {
      const answer = answers.get(req.path);
      const n = receiver.requests.filter((r) => r.path === req.path).length;
      return answer ? answer(req, n) : { status: 200, body: { ok: true } };
    });
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '0' } });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  /** A receiver path of its own for each endpoint, so each test reads only what it was sent. */
  const newPath = () => `/hooks/${++paths}`;
  const received = (path: string) => receiver.requests.filter((r) => r.path === path);
  const register = async (key: string, body: Record<string, unknown>) => {
    const res = await stack.request('POST', `${V1}/webhooks`, { key, body });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; secret: string; url: string };
  };
  /** The events received at `path`, each verified with the secret(s) given, in the order they arrived. */
  const verified = (path: string, ...secrets: string[]) =>
    received(path).map((r) => {
      const payload = secrets.map((s) => new Webhook(s).verify(r.raw, r.headers as Record<string, string>));
      return payload[0] as { id: string; type: string; created_at: string; data: any };
    });

  it('registers an endpoint with its secret shown once, lists it without, and hides it from another workspace', async () => {
    const ws = await stack.newWorkspace('Globex');
    const other = await stack.newWorkspace('Initech');
    const url = `${receiver.url}${newPath()}`;
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
    const listed = await stack.request('GET', `${V1}/webhooks`, { key: ws.key });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: created.id, url })]);
    expect(JSON.stringify(listed.body)).not.toContain(created.secret);
    const one = await stack.request('GET', `${V1}/webhooks/${created.id}`, { key: ws.key });
    expect(one.body.data).not.toHaveProperty('secret');

    for (const [method, path] of [
      ['GET', `${V1}/webhooks/${created.id}`],
      ['DELETE', `${V1}/webhooks/${created.id}`],
      ['POST', `${V1}/webhooks/${created.id}/rotate-secret`],
      ['GET', `${V1}/webhooks/${created.id}/deliveries`],
    ]) {
      const res = await stack.request(method, path, { key: other.key });
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
    }
    expect((await stack.request('GET', `${V1}/webhooks`, { key: other.key })).body.data).toEqual([]);

    const deleted = await stack.request('DELETE', `${V1}/webhooks/${created.id}`, { key: ws.key });
    expect(deleted.body).toEqual({ success: true, data: { id: created.id, deleted: true } });
    expect((await stack.request('GET', `${V1}/webhooks`, { key: ws.key })).body.data).toEqual([]);
  });

  it('refuses a bad registration with every field named, and stores nothing', async () => {
    const ws = await stack.newWorkspace('Hooli');
    const bad = await stack.request('POST', `${V1}/webhooks`, {
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
      { url: `${receiver.url}/x`, events: [] },
    ]) {
      const res = await stack.request('POST', `${V1}/webhooks`, { key: ws.key, body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await stack.request('GET', `${V1}/webhooks`, { key: ws.key })).body.data).toEqual([]);
  });

  it('sends every call event, signed, in order, each with the call as GET shows it', async () => {
    const ws = await stack.newWorkspace('Acme');
    const path = newPath();
    const hook = await register(ws.key, { url: `${receiver.url}${path}` });
    const campaign = await stack.request('POST', `${V1}/campaigns`, {
      key: ws.key,
      body: { ats_job_id: 'job-hooks', name: 'Hooks', company_name: 'Acme' },
    });
    expect(campaign.status).toBe(201);
    const res = await stack.request('POST', `${V1}/call/initiate`, {
      key: ws.key,
      body: {
        ats_job_id: 'job-hooks',
        candidates: [
          { id: 'reached', name: 'Ada Reached', email: 'a@example.com', phone: '+14155550101' },
          {
            id: 'missed',
            name: 'Bob Missed',
            email: 'b@example.com',
            phone: '+14155550102',
            custom_fields: { simulated_outcomes: 'missed' },
          },
        ],
        first_message: 'Hi {{candidate_first_name}}',
        instructions: 'Ask about availability.',
        call_settings: { whatsapp_notifications: { fallback: { template_name: 'missed_you', template_variables: {} } } },
      },
    });
    expect(res.status).toBe(200);
    const [reached, missed] = res.body.data.calls.map((c: { id: string }) => c.id) as string[];
    const events = await waitFor(
      async () => verified(path, hook.secret),
      (e) => e.filter((x) => x.data.id === reached).length === 3 && e.filter((x) => x.data.id === missed).length === 4,
      60_000,
    );
    const of = (id: string) => events.filter((e) => e.data.id === id).sort((a, b) => a.data.sequence - b.data.sequence);
    expect(of(reached).map((e) => [e.type, e.data.sequence, e.data.status])).toEqual([
      ['call.scheduled', 1, 'scheduled'],
      ['call.attempt.ended', 2, 'in_progress'],
      ['call.completed', 3, 'completed'],
    ]);
    expect(of(missed).map((e) => [e.type, e.data.sequence])).toEqual([
      ['call.scheduled', 1],
      ['call.attempt.ended', 2],
      ['whatsapp.message.updated', 3],
      ['call.failed', 4],
    ]);
    expect(of(missed)[1].data.attempts[0]).toMatchObject({ number: 1, outcome: 'failed', failure_reason: 'missed' });
    expect(of(missed)[2].data.messages[0]).toMatchObject({ kind: 'fallback', status: 'sent', template_name: 'missed_you' });
    // The last event carries the call as GET shows it now; the event id is derived from the call and its sequence.
    const final = of(reached)[2];
    expect(final.id).toBe(`evt_${reached}_3`);
    expect(received(path).find((r) => r.headers['webhook-id'] === final.id)?.headers['content-type']).toBe('application/json');
    const now = await stack.request('GET', `${V1}/calls/${reached}`, { key: ws.key });
    expect(final.data).toEqual(now.body.data);
    // Exactly one final event per call, and no event twice.
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);

    const log = await stack.request('GET', `${V1}/webhooks/${hook.id}/deliveries?limit=100`, { key: ws.key });
    expect(log.body.data).toHaveLength(7);
    expect(
      log.body.data.every(
        (d: { status: string; attempts: number; status_code: number }) =>
          d.status === 'delivered' && d.attempts === 1 && d.status_code === 200,
      ),
    ).toBe(true);
  }, 90_000);

  it('sends only the events an endpoint subscribed to', async () => {
    const ws = await stack.newWorkspace('Umbrella');
    const path = newPath();
    const hook = await register(ws.key, { url: `${receiver.url}${path}`, events: ['call.completed'] });
    await stack.request('POST', `${V1}/campaigns`, { key: ws.key, body: { ats_job_id: 'job-sub', name: 'Sub', company_name: 'Umbrella' } });
    const res = await stack.request('POST', `${V1}/call/initiate`, {
      key: ws.key,
      body: {
        ats_job_id: 'job-sub',
        candidates: [{ id: 'c1', name: 'Cy One', email: 'c@example.com', phone: '+14155550103' }],
        first_message: 'Hi',
        instructions: 'Ask.',
      },
    });
    const id = res.body.data.calls[0].id;
    await waitFor(
      async () => verified(path, hook.secret),
      (e) => e.length === 1,
      30_000,
    );
    // Time for any event it should not get to arrive.
    await waitFor(
      async () => (await stack.request('GET', `${V1}/calls/${id}`, { key: ws.key })).body.data.status,
      (s) => s === 'completed',
    );
    await new Promise((r) => setTimeout(r, 1_500));
    expect(verified(path, hook.secret).map((e) => [e.type, e.data.sequence])).toEqual([['call.completed', 1]]);
  }, 60_000);

  it('sends the interview events, the completion with its assessment', async () => {
    const ws = await stack.newWorkspace('Soylent');
    const path = newPath();
    const hook = await register(ws.key, {
      url: `${receiver.url}${path}`,
      events: ['interview.invited', 'interview.started', 'interview.completed'],
    });
    const res = await stack.request('POST', `${V1}/interview/invite`, {
      key: ws.key,
      body: inviteBody([inviteCandidate(0)], { ats_job_id: 'job-hooked', questions: [{ question: 'Why this role?', type: 'text' }] }),
    });
    expect(res.status).toBe(200);
    const id = res.body.data.interviews[0].id as string;
    await waitFor(
      async () => verified(path, hook.secret).map((e) => e.type),
      (types) => types.includes('interview.invited'),
      30_000,
    );
    const token = (await stack.db.interviews.findOne({ _id: id }))!.token;
    const page = `${stack.url}/interview/${token}`;
    const post = (suffix: string, form?: string) =>
      fetch(`${page}${suffix}`, {
        method: 'POST',
        redirect: 'manual',
        headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
        body: form,
      });
    expect((await post('/start')).status).toBe(303);
    expect((await fetch(page)).status).toBe(200); // serves the question
    expect((await post('/answers/0', 'answer=I+build+data+pipelines+in+Python+and+SQL')).status).toBe(303);
    expect((await post('/finish')).status).toBe(303);
    const events = await waitFor(
      async () => verified(path, hook.secret),
      (e) => e.some((x) => x.type === 'interview.completed'),
      60_000,
    );
    expect(events.map((e) => [e.type, e.data.status])).toEqual([
      ['interview.invited', 'invited'],
      ['interview.started', 'started'],
      ['interview.completed', 'completed'],
    ]);
    expect(events.map((e) => e.data.sequence)).toEqual([1, 2, 3]);
    expect(events[2].data.assessment).toMatchObject({ status: 'completed', provider: 'offline' });
  }, 90_000);

  it('sends interview.expired when the link runs out, with the interview as it stands', async () => {
    const ws = await stack.newWorkspace('Massive');
    const path = newPath();
    const hook = await register(ws.key, { url: `${receiver.url}${path}`, events: ['interview.expired'] });
    const res = await stack.request('POST', `${V1}/interview/invite`, {
      key: ws.key,
      body: inviteBody([inviteCandidate(5)], { ats_job_id: 'job-expiring' }),
    });
    const id = res.body.data.interviews[0].id as string;
    await waitFor(
      async () => (await stack.request('GET', `${V1}/interviews/${id}`, { key: ws.key })).body.data.status,
      (s) => s === 'invited',
      30_000,
    );
    // Its deadline moved to a second from now, and its workflow told, as a resend tells it.
    await stack.db.interviews.updateOne({ _id: id }, { $set: { expires_at: new Date(Date.now() + 1_000) } });
    await interviewNotifier(stack.temporal, stack.config.TEMPORAL_TASK_QUEUE)((await stack.db.interviews.findOne({ _id: id }))!);
    const events = await waitFor(
      async () => verified(path, hook.secret),
      (e) => e.length === 1,
      30_000,
    );
    expect(events[0]).toMatchObject({ type: 'interview.expired', data: { id, status: 'expired', sequence: 1 } });
  }, 60_000);

  it("delivers to README's receiver, which verifies with standardwebhooks and refuses a forgery", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('<!-- webhook-receiver -->'), readme.indexOf('<!-- /webhook-receiver -->'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)![1];
    // Inside the project, so the receiver resolves standardwebhooks from its node_modules.
    mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'receiver-'));
    writeFileSync(join(dir, 'receiver.ts'), code);
    const ws = await stack.newWorkspace('Readme');
    const port = await freePort();
    const hook = await register(ws.key, { url: `http://127.0.0.1:${port}/hooks`, events: ['interview.invited'] });
    const child = spawn(process.execPath, ['--import', 'tsx', join(dir, 'receiver.ts')], {
      env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: hook.secret },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await waitFor(
        () =>
          fetch(`http://127.0.0.1:${port}/hooks`, { method: 'POST', body: '{}' }).then(
            (r) => r.status,
            () => 0,
          ),
        (status) => status === 401,
        20_000,
      );
      const res = await stack.request('POST', `${V1}/interview/invite`, {
        key: ws.key,
        body: inviteBody([inviteCandidate(8)], { ats_job_id: 'job-readme' }),
      });
      const id = res.body.data.interviews[0].id as string;
      await waitFor(
        async () => out,
        (o) => o.includes(id),
        30_000,
      );
      expect(out.trim()).toBe(`interview.invited ${id} invited`);
      const log = (await stack.request('GET', `${V1}/webhooks/${hook.id}/deliveries`, { key: ws.key })).body.data;
      expect(log).toEqual([expect.objectContaining({ status: 'delivered', status_code: 204 })]);
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('tries a failing receiver again with the same event id, and logs every try', async () => {
    const ws = await stack.newWorkspace('Cyberdyne');
    const path = newPath();
    answers.set(path, (_req, n) => (n <= 1 ? { status: 503, body: 'busy' } : { status: 204 }));
    const hook = await register(ws.key, { url: `${receiver.url}${path}`, events: ['interview.invited'] });
    await stack.request('POST', `${V1}/interview/invite`, {
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
      async () => (await stack.request('GET', `${V1}/webhooks/${hook.id}/deliveries`, { key: ws.key })).body.data,
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
    const pending = await stack.request('GET', `${V1}/webhooks/${hook.id}/deliveries?status=pending`, { key: ws.key });
    expect(pending.body.data).toEqual([]);

    // Sent again by hand: once more, with the same id.
    const again = await stack.request('POST', `${V1}/webhooks/${hook.id}/deliveries/${log[0].id}/retry`, { key: ws.key });
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ id: log[0].id, status: 'pending' });
    const third = await waitFor(
      async () => received(path),
      (r) => r.length === 3,
    );
    expect(third[2].headers['webhook-id']).toBe(tries[0].headers['webhook-id']);
    const missing = await stack.request('POST', `${V1}/webhooks/${hook.id}/deliveries/nope/retry`, { key: ws.key });
    expect(missing.status).toBe(404);
  }, 60_000);

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const ws = await stack.newWorkspace('Tyrell');
    const path = newPath();
    const hook = await register(ws.key, { url: `${receiver.url}${path}`, events: ['interview.invited'] });
    const rotated = await stack.request('POST', `${V1}/webhooks/${hook.id}/rotate-secret`, { key: ws.key });
    expect(rotated.status).toBe(200);
    const { secret, previous_secret_expires_at } = rotated.body.data;
    expect(secret).not.toBe(hook.secret);
    expect(Date.parse(previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    await stack.request('POST', `${V1}/interview/invite`, {
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

  it('disables an endpoint whose receiver answers 410 Gone, and sends it nothing more', async () => {
    const ws = await stack.newWorkspace('Wonka');
    const path = newPath();
    answers.set(path, () => ({ status: 410 }));
    const hook = await register(ws.key, { url: `${receiver.url}${path}`, events: ['interview.invited'] });
    await stack.request('POST', `${V1}/interview/invite`, {
      key: ws.key,
      body: inviteBody([inviteCandidate(3)], { ats_job_id: 'job-gone' }),
    });
    const endpoint = await waitFor(
      async () => (await stack.request('GET', `${V1}/webhooks/${hook.id}`, { key: ws.key })).body.data,
      (e) => e.status === 'disabled',
      30_000,
    );
    expect(endpoint.disabled_reason).toMatch(/410 Gone/);
    const log = (await stack.request('GET', `${V1}/webhooks/${hook.id}/deliveries`, { key: ws.key })).body.data;
    expect(log).toEqual([expect.objectContaining({ status: 'failed', status_code: 410, attempts: 1 })]);
    const retry = await stack.request('POST', `${V1}/webhooks/${hook.id}/deliveries/${log[0].id}/retry`, { key: ws.key });
    expect(retry.status).toBe(409);

    await stack.request('POST', `${V1}/interview/invite`, {
      key: ws.key,
      body: inviteBody([inviteCandidate(4)], { ats_job_id: 'job-gone' }),
    });
    await waitFor(
      async () => (await stack.db.interviews.countDocuments({ workspace_id: ws.id, status: 'invited' })) as number,
      (n) => n === 2,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    expect(received(path)).toHaveLength(1);
  }, 60_000);
});

describe('the webhook of an invitation that could not be sent', () => {
  let stack: Stack;
  let receiver: HttpStub;
  let sendgrid: HttpStub;
  beforeAll(async () => {
    receiver = await startHttpStub(() => ({ status: 200 }));
    // SendGrid refuses the message for good, as it does a malformed address.
    sendgrid = await startHttpStub(() => ({
      status: 400,
      body: { errors: [{ message: 'Does not contain a valid address.', field: 'personalizations.0.to' }] },
    }));
    stack = await startStack({
      worker: true,
      env: { EMAIL_PROVIDER: 'sendgrid', SENDGRID_API_KEY: 'SG.test-key', SENDGRID_BASE_URL: sendgrid.url },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await sendgrid?.close();
  });

  it('sends interview.failed with the error', async () => {
    const ws = await stack.newWorkspace('Refused');
    const hook = (await stack.request('POST', `${V1}/webhooks`, { key: ws.key, body: { url: `${receiver.url}/refused` } })).body.data;
    const res = await stack.request('POST', `${V1}/interview/invite`, {
      key: ws.key,
      body: inviteBody([inviteCandidate(6)], { ats_job_id: 'job-refused' }),
    });
    const id = res.body.data.interviews[0].id as string;
    const got = await waitFor(
      async () => receiver.requests,
      (r) => r.length === 1,
      30_000,
    );
    const event = new Webhook(hook.secret).verify(got[0].raw, got[0].headers as Record<string, string>);
    expect(event).toMatchObject({
      type: 'interview.failed',
      data: { id, status: 'failed', error: expect.stringContaining('could not be delivered') },
    });
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
    ['a name that resolves to loopback', 'https://localhost:8443/hook', 'resolves to'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data/', 'is a cloud metadata address'],
    ["AWS's IPv6 metadata address", 'https://[fd00:ec2::254]/', 'is a cloud metadata address'],
  ])('refuses %s', async (_what, url, message) => {
    const res = await stack.request('POST', `${V1}/webhooks`, { key, body: { url } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'url', message: expect.stringContaining(message) }]);
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
