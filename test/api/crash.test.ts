import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectDatabase, type Database } from '../../infra/database';
import { adminStores } from '../../composition/stores';
import { startServiceProcess, type ServiceProcess } from '../../scripts/bench/processes';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { serviceProcessEnv } from '../helpers/stack';
import { readChecked } from '../helpers/api-contract';
import { waitFor } from '../helpers/wait';

/**
 * The bulk operations' promise, checked by killing real processes: the API and the worker run as processes
 * of their own (as `npm start` runs them with ROLE=api and ROLE=worker); right after a response both are
 * killed with SIGKILL; a new worker is started, and every entry that said `success` happens, once.
 */
describe('a response that says success survives the death of every process', () => {
  let db: Database;
  let env: Record<string, string>;
  let key: string;
  const running: ServiceProcess[] = [];
  const logDir = mkdtempSync(join(process.env.TEST_SERVICES_DIR ?? '/tmp', 'crash-'));
  const start = async (role: 'api' | 'worker') => {
    const p = await startServiceProcess(role, env, join(logDir, `${role}-${running.length}.log`));
    running.push(p);
    return p;
  };

  beforeAll(async () => {
    env = { ...(await serviceProcessEnv('crash')), SIMULATOR_CALL_SECONDS: '0' };
    db = await connectDatabase(env.MONGODB_URI, env.MONGODB_DB);
    const ws = await adminStores(db).workspaces.create({
      name: 'Crash',
      company: 'Crash Inc',
      senderFirstName: 'Ada',
      senderLastName: 'Lovelace',
    });
    key = ws.api_key;
    // A request's 20 calls dial at once, as the time bounds below assume: waiting for a calling slot (the
    // default cap is 10, and a waiter looks again after up to 19 s) is not what this file measures.
    await adminStores(db).workspaces.updateSettings(ws.workspace_id, { max_concurrent_calls: 20 });
  });
  afterAll(async () => {
    for (const p of running) await p.kill();
    await db?.db.dropDatabase();
    await db?.close();
  });

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${env.PORT}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': key },
      body: JSON.stringify(body),
    });
    return readChecked('POST', path, res);
  };

  it('places every call and sends every invitation after the API and the worker are killed right after answering', async () => {
    let api = await start('api');
    let worker = await start('worker');
    await post('/api/public/v1/campaigns', { ats_job_id: 'job-crash', name: 'Crash' });
    const calls = await post('/api/public/v1/call/initiate', {
      ats_job_id: 'job-crash',
      instructions: 'Ask {{candidate_first_name}} about availability.',
      candidates: Array.from({ length: 20 }, (_, i) => ({
        id: `k${i}`,
        name: 'Crash Candidate',
        email: `k${i}@example.com`,
        phone: `+1415555${3000 + i}`,
      })),
    });
    await Promise.all([api.kill(), worker.kill()]);
    expect(calls.body.data.calls.map((c: any) => c.status)).toEqual(Array(20).fill('success'));

    api = await start('api');
    const invites = await post(
      '/api/public/v1/interview/invite',
      inviteBody(
        Array.from({ length: 20 }, (_, i) => inviteCandidate(i)),
        { ats_job_id: 'job-crash-invite' },
      ),
    );
    await api.kill();
    expect(invites.body.data.interviews.map((r: any) => r.status)).toEqual(Array(20).fill('success'));

    worker = await start('worker');
    const callIds: string[] = calls.body.data.calls.map((c: any) => c.id);
    const interviewIds: string[] = invites.body.data.interviews.map((r: any) => r.id);
    const completed = await waitFor(
      () => db.calls.countDocuments({ _id: { $in: callIds }, status: 'completed' }),
      (n) => n === 20,
      90_000,
    );
    const sent = await waitFor(
      () => db.interviews.countDocuments({ _id: { $in: interviewIds }, 'email.status': 'sent' }),
      (n) => n === 20,
      90_000,
    );
    expect({ completed, sent }).toEqual({ completed: 20, sent: 20 });
    // Once each: one attempt per call, one email per invitation, and nothing beyond the request's records.
    for (const call of await db.calls.find({ _id: { $in: callIds } }).toArray()) expect(call.attempts).toHaveLength(1);
    expect(await db.emailLog.countDocuments({ idempotency_key: { $in: interviewIds } })).toBe(20);
    expect(await db.calls.countDocuments({ ats_job_id: 'job-crash' })).toBe(20);

    // The lists were written by the same steps as the records, so they survived the kills too: each item once,
    // as it is now, and every final state in the change feed.
    api = await start('api');
    const get = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${env.PORT}/api/public/v1${path}`, { headers: { 'x-service-api-key': key } });
      return readChecked('GET', `/api/public/v1${path.split('?')[0]}`, res);
    };
    const listed = (await get('/calls?ats_job_id=job-crash&limit=100')).body;
    expect(listed.next_cursor).toBeNull();
    expect(listed.data.map((c: any) => c.id).sort()).toEqual([...callIds].sort());
    expect(listed.data.every((c: any) => c.status === 'completed' && c.attempts.length === 1)).toBe(true);
    const invited = (await get('/interviews?ats_job_id=job-crash-invite&limit=100')).body.data;
    expect(invited.map((i: any) => i.id).sort()).toEqual([...interviewIds].sort());
    expect(invited.every((i: any) => i.status === 'invited')).toBe(true);
    const since = new Date(Date.now() - 600_000).toISOString();
    const fed = await waitFor(
      async () => (await get(`/calls?updated_since=${since}&ats_job_id=job-crash&status=completed&limit=100`)).body.data,
      (data: any[]) => data.length === 20,
      30_000,
    );
    expect(new Set(fed.map((c: any) => c.id))).toEqual(new Set(callIds));
    await api.stop();
    await worker.stop();
  }, 240_000);

  it("finishes every simulated call after the worker is killed mid-call: the simulator's reports outlive the process", async () => {
    const CALL_SECONDS = 4;
    const slow = { ...env, SIMULATOR_CALL_SECONDS: String(CALL_SECONDS) };
    const startSlow = async (role: 'api' | 'worker') => {
      const p = await startServiceProcess(role, slow, join(logDir, `slow-${role}-${running.length}.log`));
      running.push(p);
      return p;
    };
    const api = await startSlow('api');
    let worker = await startSlow('worker');
    await post('/api/public/v1/campaigns', { ats_job_id: 'job-slow', name: 'Slow' });
    const res = await post('/api/public/v1/call/initiate', {
      ats_job_id: 'job-slow',
      instructions: 'Ask {{candidate_first_name}} about availability.',
      // A missed first attempt is retried 3 s later.
      call_settings: { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 0.05, unit: 'minutes' }] } },
      candidates: Array.from({ length: 20 }, (_, i) => ({
        id: `s${i}`,
        name: 'Slow Candidate',
        email: `s${i}@example.com`,
        phone: `+1415555${4000 + i}`,
        custom_fields: { simulated_outcomes: i % 2 === 0 ? 'missed,completed' : 'completed' },
      })),
    });
    expect(res.status).toBe(200);
    const callIds: string[] = res.body.data.calls.map((c: any) => c.id);
    // Mid-call: dialled, reports pending.
    await waitFor(
      () => db.calls.countDocuments({ _id: { $in: callIds }, 'attempts.0': { $exists: true } }),
      (n) => n >= 10,
      30_000,
    );
    await worker.kill();
    const restartedAt = Date.now();
    worker = await startSlow('worker');
    const completed = await waitFor(
      () => db.calls.countDocuments({ _id: { $in: callIds }, status: 'completed' }),
      (n) => n === 20,
      90_000,
    );
    expect(completed).toBe(20);
    // Within the calls' own length (two calls and a retry for half of them) of the restart, not a flat timeout.
    // A dial cut off by the kill is taken up again after the dial activity's 30 s timeout.
    expect(Date.now() - restartedAt).toBeLessThan(2 * CALL_SECONDS * 1000 + 3_000 + 30_000 + 15_000);
    for (const call of await db.calls.find({ _id: { $in: callIds } }).toArray()) {
      const expected = call.candidate.custom_fields.simulated_outcomes === 'completed' ? ['completed'] : ['failed', 'completed'];
      expect({ id: call._id, outcomes: call.attempts.map((a) => a.outcome) }).toEqual({ id: call._id, outcomes: expected });
    }
    // The simulator placed each attempt once, and nothing asked it to place one twice.
    expect(await db.db.collection('simulator_calls').countDocuments({ call_id: { $in: callIds } })).toBe(30);
    const logs = readdirSync(logDir)
      .filter((f) => f.startsWith('slow-worker'))
      .map((f) => readFileSync(join(logDir, f), 'utf8'))
      .join('');
    expect(logs).not.toContain('attempt dialled again');
    await Promise.all([api.stop(), worker.stop()]);
  }, 240_000);
});
