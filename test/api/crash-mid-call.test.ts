import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { processStack } from '../helpers/process-stack';
import { waitFor } from '../helpers/wait';

/**
 * A worker process killed with SIGKILL in the middle of simulated calls: a new one finishes every call, and
 * nothing is dialled twice (test/api/crash.test.ts kills every process right after a response).
 */
describe('a worker killed mid-call', () => {
  const stack = processStack('crash-mid-call');

  it("finishes every simulated call after the worker is killed mid-call: the simulator's reports outlive the process", async () => {
    const CALL_SECONDS = 4;
    const slow = { SIMULATOR_CALL_SECONDS: String(CALL_SECONDS) };
    const startSlow = (role: 'api' | 'worker') => stack.start(role, slow, `slow-${role}`);
    const api = await startSlow('api');
    let worker = await startSlow('worker');
    await stack.post('/api/public/v1/campaigns', { ats_job_id: 'job-slow', name: 'Slow' });
    const res = await stack.post('/api/public/v1/call/initiate', {
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
    // Mid-call: every first attempt dialled (its provider id recorded, so the kill cuts off no dial, which
    // would wait out the dial activity's 30 s timeout), and reports still to come.
    const dialled = await waitFor(
      () => stack.db.calls.countDocuments({ _id: { $in: callIds }, 'attempts.0.provider_call_id': { $type: 'string' } }),
      (n) => n === 20,
      30_000,
    );
    await worker.kill();
    const reported = await stack.db.calls.countDocuments({ _id: { $in: callIds }, 'attempts.0.outcome': { $type: 'string' } });
    expect({ dialled, reportsPending: reported < 20 }).toEqual({ dialled: 20, reportsPending: true });
    const restartedAt = Date.now();
    worker = await startSlow('worker');
    const completed = await waitFor(
      () => stack.db.calls.countDocuments({ _id: { $in: callIds }, status: 'completed' }),
      (n) => n === 20,
      90_000,
    );
    expect(completed).toBe(20);
    // Within the calls' own length (two calls and a retry for half of them) of the restart, not a flat timeout.
    // A dial cut off by the kill is taken up again after the dial activity's 30 s timeout.
    expect(Date.now() - restartedAt).toBeLessThan(2 * CALL_SECONDS * 1000 + 3_000 + 30_000 + 15_000);
    for (const call of await stack.db.calls.find({ _id: { $in: callIds } }).toArray()) {
      const expected = call.candidate.custom_fields.simulated_outcomes === 'completed' ? ['completed'] : ['failed', 'completed'];
      expect({ id: call._id, outcomes: call.attempts.map((a) => a.outcome) }).toEqual({ id: call._id, outcomes: expected });
    }
    // The simulator placed each attempt once, and nothing asked it to place one twice.
    expect(await stack.db.db.collection('simulator_calls').countDocuments({ call_id: { $in: callIds } })).toBe(30);
    const logs = readdirSync(stack.logDir)
      .filter((f) => f.startsWith('slow-worker'))
      .map((f) => readFileSync(join(stack.logDir, f), 'utf8'))
      .join('');
    expect(logs).not.toContain('attempt dialled again');
    await Promise.all([api.stop(), worker.stop()]);
  }, 240_000);
});
