import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { inviteBody, inviteCandidate, invitedInterview } from '../helpers/invite';
import { hubSignature, inboundTextWebhook, interactiveReplyWebhook } from '../helpers/provider-wire';

const V1 = '/api/public/v1';
const APP_SECRET = 'suppressions-app-secret';
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

/** The opt-out ledger from the black box: its endpoints, each source, and what an entry stops. */
describe('the opt-out ledger on the real stack', () => {
  let stack: Stack;
  const req = (method: string, path: string, key: string, body?: unknown) => stack.request(method, `${V1}${path}`, { key, body });
  const suppress = (key: string, body: unknown) => req('POST', '/suppressions', key, body);
  const list = async (key: string, query = '') => (await req('GET', `/suppressions${query}`, key)).body;
  const call = async (key: string, id: string) => (await req('GET', `/calls/${id}`, key)).body.data;
  async function initiate(key: string, job: string, candidates: unknown[], extra: Record<string, unknown> = {}) {
    await req('POST', '/campaigns', key, { ats_job_id: job, name: job, company_name: 'Acme' });
    const res = await req('POST', '/call/initiate', key, {
      ats_job_id: job,
      candidates,
      first_message: 'Hi',
      instructions: 'Ask.',
      ...extra,
    });
    expect(res.status).toBe(200);
    return res.body.data.calls as Array<{ id: string | null; status: string; message: string }>;
  }
  const person = (n: number) => ({ id: `p${n}`, name: `Ada ${n}`, email: `ada${n}@example.com`, phone: `+1415555${String(2000 + n)}` });

  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '2', WHATSAPP_APP_SECRET: APP_SECRET } });
  });
  afterAll(() => stack?.stop());

  it('files, lists newest first with filters and a cursor, and deletes entries, each workspace its own', async () => {
    const { key } = await stack.newWorkspace('Ledger');
    const other = await stack.newWorkspace('Elsewhere');
    const created = await suppress(key, { phone: '+14155550001', reason: 'asked on the phone' });
    expect(created.status).toBe(201);
    const first = created.body.data;
    expect(first).toEqual({
      id: expect.stringMatching(/^sup_/),
      phone: '+14155550001',
      email: null,
      channels: ['voice', 'whatsapp', 'email'],
      source: 'api',
      reason: 'asked on the phone',
      created_at: expect.any(String),
    });
    const second = (await suppress(key, { email: 'Grace@Example.COM', channels: ['email'] })).body.data;
    expect(second).toMatchObject({ email: 'grace@example.com', phone: null, channels: ['email'] });
    const third = (await suppress(key, { phone: '+14155550001', email: 'x@example.com', channels: ['whatsapp', 'voice'] })).body.data;
    expect(third.channels).toEqual(['voice', 'whatsapp']);

    expect((await list(key)).data.map((s: { id: string }) => s.id)).toEqual([third.id, second.id, first.id]);
    expect((await list(key, '?phone=%2B14155550001')).data.map((s: { id: string }) => s.id)).toEqual([third.id, first.id]);
    expect((await list(key, '?email=GRACE@example.com')).data.map((s: { id: string }) => s.id)).toEqual([second.id]);
    expect((await list(key, '?source=whatsapp')).data).toEqual([]);
    const page1 = await list(key, '?limit=2');
    expect(page1.data).toHaveLength(2);
    const page2 = await list(key, `?limit=2&cursor=${encodeURIComponent(page1.next_cursor)}`);
    expect(page2).toEqual({ success: true, data: [expect.objectContaining({ id: first.id })], next_cursor: null });
    expect((await req('GET', `/suppressions?source=api&cursor=${encodeURIComponent(page1.next_cursor)}`, key)).status).toBe(400);

    // Another workspace sees none of them, and cannot delete them.
    expect((await list(other.key)).data).toEqual([]);
    expect((await req('DELETE', `/suppressions/${first.id}`, other.key)).status).toBe(404);
    const deleted = await stack.request('DELETE', `${V1}/suppressions/${first.id}`, { key });
    expect(deleted.status).toBe(204);
    expect((await req('DELETE', `/suppressions/${first.id}`, key)).status).toBe(404);
    expect((await list(key, '?phone=%2B14155550001')).data.map((s: { id: string }) => s.id)).toEqual([third.id]);
  });

  it.each([
    ['neither phone nor email', { channels: ['voice'] }, 'phone', /required when there is no email/],
    ['an unknown channel', { phone: '+14155550002', channels: ['sms'] }, 'channels.0', /voice|channels/],
    ['an empty channel list', { phone: '+14155550002', channels: [] }, 'channels', /at least 1/],
    ['a phone that is not E.164', { phone: '0044 20 7946 0000' }, 'phone', /E\.164/],
  ])('refuses %s with a 400 naming the field, and files nothing', async (_name, body, field, message) => {
    const { key } = await stack.newWorkspace('Refused');
    const res = await suppress(key, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      errors: expect.arrayContaining([{ field, message: expect.stringMatching(message) }]),
    });
    expect((await list(key)).data).toEqual([]);
  });

  it('gives a suppressed phone a failed result and no call, and a suppressed email no invitation', async () => {
    const { key } = await stack.newWorkspace('Refusing');
    await suppress(key, { phone: person(1).phone, channels: ['voice'] });
    const calls = await initiate(key, 'job-refuse', [person(1), person(2)], { schedule_at: tomorrow() });
    expect(calls[0]).toMatchObject({ id: null, status: 'failed', message: expect.stringMatching(/opted out/) });
    expect(calls[1]).toMatchObject({ status: 'success' });
    expect((await req('GET', '/calls?ats_job_id=job-refuse', key)).body.data.map((c: { id: string }) => c.id)).toEqual([calls[1].id]);

    await suppress(key, { email: 'GRACE.1@example.com', channels: ['email'] });
    const invite = await req(
      'POST',
      '/interview/invite',
      key,
      inviteBody([inviteCandidate(1), inviteCandidate(2)], { ats_job_id: 'job-refuse-2' }),
    );
    expect(invite.body.data.interviews[0]).toMatchObject({ status: 'failed', message: expect.stringMatching(/opted out/) });
    expect(invite.body.data.interviews[0].id).toBeUndefined();
    expect(invite.body.data.interviews[1]).toMatchObject({ status: 'success' });
  });

  it('cancels a waiting call of a phone suppressed for voice, opted_out, and skips messages for a WhatsApp-only one', async () => {
    const { key } = await stack.newWorkspace('Waiting');
    const [waiting] = await initiate(key, 'job-wait', [person(3)], { schedule_at: tomorrow() });
    await waitFor(
      () => call(key, waiting.id!),
      (c) => c.scheduled_for !== null,
    );
    await suppress(key, { phone: person(3).phone, channels: ['voice'] });
    const cancelled = await waitFor(
      () => call(key, waiting.id!),
      (c) => c.status === 'cancelled',
      20_000,
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'opted_out', attempts: [] });

    await suppress(key, { phone: person(4).phone, channels: ['whatsapp'] });
    const [messaged] = await initiate(key, 'job-messages', [person(4)], {
      call_settings: { whatsapp_notifications: { pre_call: { template_name: 'heads_up', template_variables: {} } } },
    });
    const done = await waitFor(
      () => call(key, messaged.id!),
      (c) => c.status === 'completed',
      20_000,
    );
    expect(done.messages).toEqual([
      expect.objectContaining({ kind: 'pre_call', status: 'skipped', skip_reason: 'opted_out', sent_at: null }),
    ]);
  }, 60_000);

  it('files a WhatsApp STOP in every workspace that knows the phone, once, and cancels its waiting calls', async () => {
    const a = await stack.newWorkspace('Stop A');
    const b = await stack.newWorkspace('Stop B');
    const bystander = await stack.newWorkspace('Stop C');
    const [inA] = await initiate(a.key, 'job-stop', [person(5)], { schedule_at: tomorrow() });
    await initiate(b.key, 'job-stop', [person(5)], { schedule_at: tomorrow() });
    await waitFor(
      () => call(a.key, inA.id!),
      (c) => c.scheduled_for !== null,
    );
    const inbound = (id: string, text: string) => JSON.stringify(inboundTextWebhook(person(5).phone, id, text, 'Ada'));
    const post = (raw: string) => stack.request('POST', `${V1}/providers/whatsapp/events`, { raw, headers: hubSignature(raw, APP_SECRET) });
    // A reply that is not a stop word files nothing.
    expect((await post(inbound('wamid.hello', 'Hello, yes please call me'))).status).toBe(200);
    const stop = inbound('wamid.stop', '  Stop ');
    expect((await post(stop)).status).toBe(200);
    expect((await post(stop)).status).toBe(200); // Meta's redelivery
    for (const ws of [a, b]) {
      expect((await list(ws.key)).data).toEqual([
        expect.objectContaining({ phone: person(5).phone, email: null, channels: ['voice', 'whatsapp'], source: 'whatsapp' }),
      ]);
    }
    expect((await list(bystander.key)).data).toEqual([]);
    const cancelled = await waitFor(
      () => call(a.key, inA.id!),
      (c) => c.status === 'cancelled',
      20_000,
    );
    expect(cancelled.cancel_reason).toBe('opted_out');
  }, 60_000);

  it("reads a reply to an interactive message (a button's or a list row's title) for STOP as it reads a text", async () => {
    const post = (body: unknown) => {
      const raw = JSON.stringify(body);
      return stack.request('POST', `${V1}/providers/whatsapp/events`, { raw, headers: hubSignature(raw, APP_SECRET) });
    };
    for (const [n, kind] of [
      [6, 'button_reply'],
      [7, 'list_reply'],
    ] as const) {
      const ws = await stack.newWorkspace(`Interactive ${kind}`);
      await initiate(ws.key, 'job-interactive', [person(n)], { schedule_at: tomorrow() });
      expect((await post(interactiveReplyWebhook(person(n).phone, `wamid.yes-${n}`, kind, 'Yes, call me'))).status).toBe(200);
      expect((await list(ws.key)).data).toEqual([]);
      expect((await post(interactiveReplyWebhook(person(n).phone, `wamid.stop-${n}`, kind, 'STOP'))).status).toBe(200);
      expect((await list(ws.key)).data).toEqual([
        expect.objectContaining({ phone: person(n).phone, channels: ['voice', 'whatsapp'], source: 'whatsapp' }),
      ]);
    }
  });

  it("erases with the person the WhatsApp form a STOP was filed under (+521… for a Mexican number stored as +52…), and the reply's words", async () => {
    const ws = await stack.newWorkspace('Mexico');
    expect(await stack.stores.workspaces.setNumbers(ws.id, { whatsapp: 'wa-mexico' })).toEqual({ set: true });
    const stored = '+525512345678';
    await initiate(ws.key, 'job-mx', [{ id: 'mx-1', name: 'Ana Ruiz', email: 'ana.ruiz@example.com', phone: stored }], {
      schedule_at: tomorrow(),
    });
    const raw = JSON.stringify(inboundTextWebhook('+5215512345678', 'wamid.stop-mx', 'Baja', 'Ana', 'wa-mexico'));
    expect((await stack.request('POST', `${V1}/providers/whatsapp/events`, { raw, headers: hubSignature(raw, APP_SECRET) })).status).toBe(
      200,
    );
    expect(((await list(ws.key)).data as Array<{ phone: string }>).map((e) => e.phone).sort()).toEqual(
      ['+525512345678', '+5215512345678'].sort(),
    );

    const erased = await stack.request('POST', `${V1}/candidates/erase`, { key: ws.key, body: { phone: stored } });
    expect(erased.status).toBe(200);
    const after = (await list(ws.key)).data as Array<Record<string, unknown>>;
    expect(after.filter((e) => e.source === 'whatsapp')).toEqual([
      expect.objectContaining({ phone: null, reason: null }),
      expect.objectContaining({ phone: null, reason: null }),
    ]);
    const kept = JSON.stringify(await stack.db.suppressions.find({ workspace_id: ws.id }).toArray());
    for (const trace of ['5512345678', 'Baja']) expect(kept).not.toContain(trace);
  });

  it('puts an unsubscribe link in every email; its page changes nothing, its one-click POST suppresses the address', async () => {
    const { key } = await stack.newWorkspace('Mailer');
    const { id } = await invitedInterview(stack, key, 'job-mail', [{ question: 'Why us?', type: 'text' }]);
    const mail = await stack.stores.providerLogs.email(id);
    const link = mail!.headers!['List-Unsubscribe'].slice(1, -1);
    expect(mail!.headers).toEqual({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(link).toMatch(/\/u\/int_[^/]+$/);
    expect(mail!.text).toContain(link);
    const path = new URL(link).pathname;

    for (let i = 0; i < 2; i++) {
      const page = await fetch(stack.url + path);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Unsubscribe');
    }
    expect((await list(key)).data).toEqual([]);
    // A forged token, and a POST from another site's page, change nothing either.
    expect((await fetch(`${stack.url}${path}x`, { method: 'POST' })).status).toBe(404);
    expect(
      (await fetch(stack.url + path, { method: 'POST', headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } }))
        .status,
    ).toBe(403);
    expect((await list(key)).data).toEqual([]);

    const oneClick = await fetch(stack.url + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toBe('Unsubscribed.');
    expect((await list(key)).data).toEqual([
      expect.objectContaining({ email: 'grace.1@example.com', phone: null, channels: ['email'], source: 'email_link' }),
    ]);
    expect(await (await fetch(stack.url + path)).text()).toContain('You are unsubscribed');

    // A resend the ATS asks for now is not sent.
    expect((await req('POST', `/interviews/${id}/resend`, key)).status).toBeLessThan(300);
    const kept = await waitFor(
      () => stack.db.interviews.findOne({ _id: id }),
      (i) => !!i?.resend?.error,
      20_000,
    );
    expect(kept!.resend).toMatchObject({ sent_at: null, error: expect.stringMatching(/opted out/) });
    expect(await stack.db.emailLog.countDocuments({ idempotency_key: { $regex: `^${id}/resend` } })).toBe(0);
  }, 60_000);

  it("files every channel for the candidate's email and phone from the interview page, after a confirmation", async () => {
    const { key } = await stack.newWorkspace('Page');
    const candidate = inviteCandidate(1);
    const [waiting] = await initiate(key, 'job-page-call', [{ id: 'c', name: 'Grace', email: candidate.email, phone: candidate.phone }], {
      schedule_at: tomorrow(),
    });
    const { path } = await invitedInterview(stack, key, 'job-page', [{ question: 'Why us?', type: 'text' }]);
    const confirm = await fetch(`${stack.url}${path}/opt-out`);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('will not call, message or email you again');
    expect((await list(key)).data).toEqual([]);
    const res = await fetch(`${stack.url}${path}/opt-out`, { method: 'POST', redirect: 'manual', headers: { origin: stack.url } });
    expect(res.status).toBe(303);
    expect((await list(key)).data).toEqual([
      expect.objectContaining({
        email: 'grace.1@example.com',
        phone: candidate.phone,
        channels: ['voice', 'whatsapp', 'email'],
        source: 'interview_page',
      }),
    ]);
    const cancelled = await waitFor(
      () => call(key, waiting.id!),
      (c) => c.status === 'cancelled',
      20_000,
    );
    expect(cancelled.cancel_reason).toBe('opted_out');
  }, 60_000);
});
