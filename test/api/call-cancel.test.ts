import { Webhook } from 'standardwebhooks';
import { startStack, type Stack } from '../helpers/stack';
import { startHttpStub, type HttpStub } from '../helpers/http-stub';
import { waitFor } from '../helpers/wait';

const V1 = '/api/public/v1';

/** POST /calls/:id/cancel and POST /calls/cancel on the real stack, with the simulator's 3-second calls. */
describe('cancelling calls on the real stack', () => {
  let stack: Stack;
  let receiver: HttpStub;
  beforeAll(async () => {
    receiver = await startHttpStub(() => ({ status: 200 }));
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '3' } });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const candidate = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: `Ada ${id}`,
    email: `${id}@example.com`,
    phone: `+1415555${String(1000 + Number(id.replace(/\D/g, '') || 0)).padStart(4, '0')}`,
    ...extra,
  });
  async function initiate(key: string, job: string, candidates: unknown[], extra: Record<string, unknown> = {}) {
    await stack.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: job, name: job, company_name: 'Acme' } });
    const res = await stack.request('POST', `${V1}/call/initiate`, {
      key,
      body: { ats_job_id: job, candidates, first_message: 'Hi', instructions: 'Ask about availability.', ...extra },
    });
    expect(res.status).toBe(200);
    return res.body.data.calls.map((c: { id: string }) => c.id) as string[];
  }
  const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();
  const view = async (key: string, id: string) => (await stack.request('GET', `${V1}/calls/${id}`, { key })).body.data;

  it('cancels a scheduled call at once, frees the candidate, announces it, and refuses a second cancel', async () => {
    const ws = await stack.newWorkspace('Acme');
    const hook = (
      await stack.request('POST', `${V1}/webhooks`, { key: ws.key, body: { url: `${receiver.url}/acme`, events: ['call.cancelled'] } })
    ).body.data;
    const [id] = await initiate(ws.key, 'job-later', [candidate('c1')], {
      schedule_at: tomorrow(),
      call_settings: { whatsapp_notifications: { fallback: { template_name: 'missed_you', template_variables: {} } } },
    });
    await waitFor(
      () => view(ws.key, id),
      (v) => v.scheduled_for !== null,
    );
    const res = await stack.request('POST', `${V1}/calls/${id}/cancel`, { key: ws.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'cancelled', attempts: [], messages: [], next_attempt_at: null });

    const again = await stack.request('POST', `${V1}/calls/${id}/cancel`, { key: ws.key });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, code: 'CONFLICT', message: expect.stringContaining('cancelled') });

    // The candidate may be called again.
    const [next] = await initiate(ws.key, 'job-later', [candidate('c1')], { schedule_at: tomorrow() });
    expect(next).not.toBe(id);

    const events = await waitFor(
      async () => receiver.requests.filter((r) => r.path === '/acme'),
      (r) => r.length === 1,
    );
    const event = new Webhook(hook.secret).verify(events[0].raw, events[0].headers as Record<string, string>) as {
      type: string;
      data: { id: string; status: string };
    };
    expect(event).toMatchObject({ type: 'call.cancelled', data: { id, status: 'cancelled' } });
  }, 60_000);

  it('lets an attempt under way end first, cancelling meanwhile, then cancels the call without a retry', async () => {
    const ws = await stack.newWorkspace('Initech');
    const [id] = await initiate(ws.key, 'job-now', [candidate('c2', { custom_fields: { simulated_outcomes: 'missed' } })], {
      call_settings: { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 1, unit: 'minutes' }] } },
    });
    await waitFor(
      () => view(ws.key, id),
      (v) => v.status === 'in_progress',
    );
    const res = await stack.request('POST', `${V1}/calls/${id}/cancel`, { key: ws.key });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('cancelling');
    const done = await waitFor(
      () => view(ws.key, id),
      (v) => v.status === 'cancelled',
      20_000,
    );
    expect(done).toMatchObject({ status: 'cancelled', next_attempt_at: null });
    expect(done.attempts).toEqual([expect.objectContaining({ number: 1, outcome: 'failed', failure_reason: 'missed' })]);
  }, 60_000);

  it("refuses to cancel a call that has ended, and another workspace's call", async () => {
    const ws = await stack.newWorkspace('Globex');
    const other = await stack.newWorkspace('Hooli');
    const [id] = await initiate(ws.key, 'job-done', [candidate('c3')]);
    await waitFor(
      () => view(ws.key, id),
      (v) => v.status === 'completed',
      20_000,
    );
    const ended = await stack.request('POST', `${V1}/calls/${id}/cancel`, { key: ws.key });
    expect(ended.status).toBe(409);
    expect((await view(ws.key, id)).status).toBe('completed');
    const foreign = await stack.request('POST', `${V1}/calls/${id}/cancel`, { key: other.key });
    expect(foreign.status).toBe(404);
  }, 60_000);

  it("cancels some candidates' calls, then the rest of the job's, and counts them", async () => {
    const ws = await stack.newWorkspace('Umbrella');
    const ids = await initiate(ws.key, 'job-bulk', [candidate('c4'), candidate('c5'), candidate('c6')], { schedule_at: tomorrow() });
    const some = await stack.request('POST', `${V1}/calls/cancel`, {
      key: ws.key,
      body: { ats_job_id: 'job-bulk', candidate_ids: ['c4', 'c5', 'c-unknown'] },
    });
    expect(some.status).toBe(200);
    expect(some.body).toEqual({
      success: true,
      data: { ats_job_id: 'job-bulk', cancelled: 2, already_final: 0, unknown_candidate_ids: ['c-unknown'] },
    });
    const statuses = () => Promise.all(ids.map(async (id) => (await view(ws.key, id)).status));
    expect(await waitFor(statuses, (s) => s[0] === 'cancelled' && s[1] === 'cancelled')).toEqual(['cancelled', 'cancelled', 'scheduled']);

    const rest = await stack.request('POST', `${V1}/calls/cancel`, { key: ws.key, body: { ats_job_id: 'job-bulk' } });
    expect(rest.body.data).toEqual({ ats_job_id: 'job-bulk', cancelled: 1, already_final: 2, unknown_candidate_ids: [] });
    expect(await waitFor(statuses, (s) => s[2] === 'cancelled')).toEqual(['cancelled', 'cancelled', 'cancelled']);

    const unknownJob = await stack.request('POST', `${V1}/calls/cancel`, { key: ws.key, body: { ats_job_id: 'job-none' } });
    expect(unknownJob.body.data).toEqual({ ats_job_id: 'job-none', cancelled: 0, already_final: 0, unknown_candidate_ids: [] });
    const bad = await stack.request('POST', `${V1}/calls/cancel`, { key: ws.key, body: { candidate_ids: [] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['ats_job_id', 'candidate_ids']);
  }, 60_000);
});
