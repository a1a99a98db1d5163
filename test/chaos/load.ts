import type { ChaosStack, Response } from './stack';
import { Checks, campaign, candidates, initiateBody, percentile } from './checks';
import { inviteBody } from '../helpers/invite';

type Op = { name: string; weight: number; run: (stack: ChaosStack, n: number) => Promise<Response> };

/** (f) Mixed traffic from concurrent clients for a while: zero 5xx; p50 and p99 per operation. */
export async function load(stack: ChaosStack, opts: { clients: number; seconds: number }): Promise<Checks> {
  const checks = new Checks(`${opts.clients} clients of mixed traffic for ${opts.seconds} s`);
  const job = 'chaos-load';
  const inviteJob = 'chaos-load-invite';
  await campaign(stack, job);
  const callIds: string[] = [];
  const interviewIds: string[] = [];
  const ops: Op[] = [
    {
      name: 'POST call/initiate (1-3)',
      weight: 25,
      run: async (s, n) => {
        const res = await s.request('POST', '/api/public/v1/call/initiate', initiateBody(job, candidates(60, 1 + (n % 3), n * 3)));
        if (res.status === 200) callIds.push(...res.body.data.calls.map((c: any) => c.id).filter(Boolean));
        return res;
      },
    },
    {
      name: 'GET calls/:id',
      weight: 25,
      run: (s, n) => s.request('GET', `/api/public/v1/calls/${callIds[n % Math.max(1, callIds.length)] ?? 'call_none'}`),
    },
    {
      name: 'POST interview/invite (1-3)',
      weight: 15,
      run: async (s, n) => {
        const cands = Array.from({ length: 1 + (n % 3) }, (_, k) => ({
          id: `l${n}-${k}`,
          name: 'Load Candidate',
          email: `l${n}.${k}@example.com`,
        }));
        const res = await s.request('POST', '/api/public/v1/interview/invite', inviteBody(cands, { ats_job_id: inviteJob }));
        if (res.status === 200) interviewIds.push(...res.body.data.interviews.map((r: any) => r.id).filter(Boolean));
        return res;
      },
    },
    {
      name: 'GET interviews/:id',
      weight: 15,
      run: (s, n) => s.request('GET', `/api/public/v1/interviews/${interviewIds[n % Math.max(1, interviewIds.length)] ?? 'int_none'}`),
    },
    {
      name: 'POST ai/parse-jd',
      weight: 5,
      run: (s) =>
        s.request('POST', '/api/public/v1/ai/parse-jd', { job_description: 'Senior Python engineer, 5+ years, remote, full time.' }),
    },
    { name: 'GET workspace', weight: 10, run: (s) => s.request('GET', '/api/public/v1/workspace') },
    {
      name: 'POST campaigns',
      weight: 5,
      run: (s, n) => s.request('POST', '/api/public/v1/campaigns', { ats_job_id: `chaos-load-${n % 20}`, name: 'Load' }),
    },
  ];
  const total = ops.reduce((a, o) => a + o.weight, 0);
  const pick = (n: number) => {
    let r = (n * 7_919) % total;
    return ops.find((o) => (r -= o.weight) < 0)!;
  };
  const results = new Map<string, Response[]>(ops.map((o) => [o.name, []]));
  const end = Date.now() + opts.seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: opts.clients }, async () => {
      while (Date.now() < end) {
        const i = n++;
        const op = pick(i);
        results.get(op.name)!.push(await op.run(stack, i));
      }
    }),
  );
  const all = [...results.values()].flat();
  const bad = all.filter((r) => r.status >= 500 || r.status === 0);
  checks.that(
    bad.length === 0,
    `zero 5xx in ${all.length} requests`,
    bad.slice(0, 5).map((r) => [r.status, r.body]),
  );
  for (const [name, rs] of results) {
    const statuses = [...new Set(rs.map((r) => r.status))].sort().join('/');
    const ms = rs.map((r) => r.ms);
    checks.note(
      `${name}: ${rs.length} requests, status ${statuses}, p50 ${Math.round(percentile(ms, 50))} ms, p99 ${Math.round(percentile(ms, 99))} ms`,
    );
  }
  return checks;
}
