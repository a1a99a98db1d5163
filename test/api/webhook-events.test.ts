import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../../scripts/services';
import { startStack, type Stack } from '../helpers/stack';
import { startHttpStub, type HttpStub } from '../helpers/http-stub';
import { webhookBench } from '../helpers/webhook-receiver';
import { waitFor } from '../helpers/wait';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { interviewSignaller } from '../../composition/interview-signals';

const V1 = '/api/public/v1';
const ROOT = join(__dirname, '..', '..');

/**
 * Every event type on the real stack (API, worker, database, Temporal), delivered to a local receiver and
 * verified with the `standardwebhooks` package, as an ATS would, never with the service's own code; and
 * The receiver of docs/webhooks.md, run as written.
 */
describe('webhook events on the real stack', () => {
  const bench = webhookBench();
  const { newPath, received, verified, register } = bench;

  it('sends every call event, signed, in order, each with the call as GET shows it', async () => {
    const ws = await bench.stack.newWorkspace('Acme');
    const path = newPath();
    const hook = await register(ws.key, { url: `${bench.hooks.stub.url}${path}` });
    const campaign = await bench.stack.request('POST', `${V1}/campaigns`, {
      key: ws.key,
      body: { ats_job_id: 'job-hooks', name: 'Hooks', company_name: 'Acme' },
    });
    expect(campaign.status).toBe(201);
    const res = await bench.stack.request('POST', `${V1}/call/initiate`, {
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
      // A completed attempt ends the call in the same write: its event shows the call completed already.
      ['call.attempt.ended', 2, 'completed'],
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
    const now = await bench.stack.request('GET', `${V1}/calls/${reached}`, { key: ws.key });
    expect(final.data).toEqual(now.body.data);
    // Exactly one final event per call, and no event twice.
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);

    const log = await bench.stack.request('GET', `${V1}/webhooks/${hook.id}/deliveries?limit=100`, { key: ws.key });
    expect(log.body.data).toHaveLength(7);
    expect(
      log.body.data.every(
        (d: { status: string; attempts: number; status_code: number }) =>
          d.status === 'delivered' && d.attempts === 1 && d.status_code === 200,
      ),
    ).toBe(true);
  }, 90_000);

  it('sends only the events an endpoint subscribed to', async () => {
    const ws = await bench.stack.newWorkspace('Umbrella');
    const path = newPath();
    const hook = await register(ws.key, { url: `${bench.hooks.stub.url}${path}`, events: ['call.completed'] });
    await bench.stack.request('POST', `${V1}/campaigns`, {
      key: ws.key,
      body: { ats_job_id: 'job-sub', name: 'Sub', company_name: 'Umbrella' },
    });
    const res = await bench.stack.request('POST', `${V1}/call/initiate`, {
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
      async () => (await bench.stack.request('GET', `${V1}/calls/${id}`, { key: ws.key })).body.data.status,
      (s) => s === 'completed',
    );
    await new Promise((r) => setTimeout(r, 1_500));
    // The sequence counts every event of the call, sent here or not: scheduled, the attempt's end, completed.
    expect(verified(path, hook.secret).map((e) => [e.type, e.data.sequence])).toEqual([['call.completed', 3]]);
  }, 60_000);

  it('sends the interview events, the completion with its assessment', async () => {
    const ws = await bench.stack.newWorkspace('Soylent');
    const path = newPath();
    const hook = await register(ws.key, {
      url: `${bench.hooks.stub.url}${path}`,
      events: ['interview.invited', 'interview.started', 'interview.completed'],
    });
    const res = await bench.stack.request('POST', `${V1}/interview/invite`, {
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
    const token = (await bench.stack.db.interviews.findOne({ _id: id }))!.token;
    const page = `${bench.stack.url}/interview/${token}`;
    const post = (suffix: string, form?: string) =>
      fetch(`${page}${suffix}`, {
        method: 'POST',
        redirect: 'manual',
        headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
        body: form,
      });
    expect((await post('/start', 'consent=given')).status).toBe(303);
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
    const ws = await bench.stack.newWorkspace('Massive');
    const path = newPath();
    const hook = await register(ws.key, { url: `${bench.hooks.stub.url}${path}`, events: ['interview.expired'] });
    const res = await bench.stack.request('POST', `${V1}/interview/invite`, {
      key: ws.key,
      body: inviteBody([inviteCandidate(5)], { ats_job_id: 'job-expiring' }),
    });
    const id = res.body.data.interviews[0].id as string;
    await waitFor(
      async () => (await bench.stack.request('GET', `${V1}/interviews/${id}`, { key: ws.key })).body.data.status,
      (s) => s === 'invited',
      30_000,
    );
    // Its deadline moved to a second from now, and its workflow told, as a resend tells it.
    await bench.stack.db.interviews.updateOne({ _id: id }, { $set: { expires_at: new Date(Date.now() + 1_000) } });
    await interviewSignaller(
      bench.stack.temporal,
      bench.stack.config.TEMPORAL_TASK_QUEUE,
    )((await bench.stack.db.interviews.findOne({ _id: id }))!);
    const events = await waitFor(
      async () => verified(path, hook.secret),
      (e) => e.length === 1,
      30_000,
    );
    // Second of the interview's events, after interview.invited (not sent here).
    expect(events[0]).toMatchObject({ type: 'interview.expired', data: { id, status: 'expired', sequence: 2 } });
  }, 60_000);

  it('delivers to the receiver of docs/webhooks.md, which verifies with standardwebhooks and refuses a forgery', async () => {
    const readme = readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8');
    const section = readme.slice(readme.indexOf('<!-- webhook-receiver -->'), readme.indexOf('<!-- /webhook-receiver -->'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)![1];
    // Inside the project, so the receiver resolves standardwebhooks from its node_modules.
    mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'receiver-'));
    writeFileSync(join(dir, 'receiver.ts'), code);
    const ws = await bench.stack.newWorkspace('Readme');
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
      const res = await bench.stack.request('POST', `${V1}/interview/invite`, {
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
      const log = (await bench.stack.request('GET', `${V1}/webhooks/${hook.id}/deliveries`, { key: ws.key })).body.data;
      expect(log).toEqual([expect.objectContaining({ status: 'delivered', status_code: 204 })]);
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
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
