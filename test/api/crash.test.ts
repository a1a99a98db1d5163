import { inviteBody, inviteCandidate } from '../helpers/invite';
import { processStack } from '../helpers/process-stack';
import { waitFor } from '../helpers/wait';

/**
 * The bulk operations' promise, checked by killing real processes: the API and the worker run as processes
 * of their own (as `npm start` runs them with ROLE=api and ROLE=worker); right after a response both are
 * killed with SIGKILL; a new worker is started, and every entry that said `success` happens, once.
 * test/api/crash-mid-call.test.ts kills the worker in the middle of calls.
 */
describe('a response that says success survives the death of every process', () => {
  const stack = processStack('crash');

  it('places every call and sends every invitation after the API and the worker are killed right after answering', async () => {
    let api = await stack.start('api');
    let worker = await stack.start('worker');
    await stack.post('/api/public/v1/campaigns', { ats_job_id: 'job-crash', name: 'Crash' });
    const calls = await stack.post('/api/public/v1/call/initiate', {
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

    api = await stack.start('api');
    const invites = await stack.post(
      '/api/public/v1/interview/invite',
      inviteBody(
        Array.from({ length: 20 }, (_, i) => inviteCandidate(i)),
        { ats_job_id: 'job-crash-invite' },
      ),
    );
    await api.kill();
    expect(invites.body.data.interviews.map((r: any) => r.status)).toEqual(Array(20).fill('success'));

    worker = await stack.start('worker');
    const callIds: string[] = calls.body.data.calls.map((c: any) => c.id);
    const interviewIds: string[] = invites.body.data.interviews.map((r: any) => r.id);
    const completed = await waitFor(
      () => stack.db.calls.countDocuments({ _id: { $in: callIds }, status: 'completed' }),
      (n) => n === 20,
      90_000,
    );
    const sent = await waitFor(
      () => stack.db.interviews.countDocuments({ _id: { $in: interviewIds }, 'email.status': 'sent' }),
      (n) => n === 20,
      90_000,
    );
    expect({ completed, sent }).toEqual({ completed: 20, sent: 20 });
    // Once each: one attempt per call, one email per invitation, and nothing beyond the request's records.
    for (const call of await stack.db.calls.find({ _id: { $in: callIds } }).toArray()) expect(call.attempts).toHaveLength(1);
    expect(await stack.db.emailLog.countDocuments({ idempotency_key: { $in: interviewIds } })).toBe(20);
    expect(await stack.db.calls.countDocuments({ ats_job_id: 'job-crash' })).toBe(20);

    // The lists were written by the same steps as the records, so they survived the kills too: each item once,
    // as it is now, and every final state in the change feed.
    api = await stack.start('api');
    const get = stack.get;
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
});
