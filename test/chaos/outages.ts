import type { ChaosStack, Response } from './stack';
import {
  Checks,
  callsByCandidate,
  campaign,
  candidates,
  dialCounts,
  initiateBody,
  isUnavailableBody,
  sleep,
  until,
  type Cand,
} from './checks';
import { inviteBody } from '../helpers/invite';

interface Sent {
  cands: Cand[];
  res: Response;
  at: number;
}

/** Sends one call/initiate of one new candidate after another until `stop()`, keeping every answer. */
function traffic(stack: ChaosStack, job: string, series: number, clients: number) {
  const sent: Sent[] = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const cands = candidates(series, 1, n++);
      const at = Date.now();
      sent.push({ cands, res: await stack.request('POST', '/api/public/v1/call/initiate', initiateBody(job, cands)), at });
      await sleep(100);
    }
  });
  return {
    sent,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

const succeeded = (r: Response) => r.status === 200 && r.body?.data?.calls?.every((c: any) => c.status === 'success');

/** Retries every request that did not succeed until it does (bounded): nothing may block the retry for good. */
async function retryUntilAccepted(stack: ChaosStack, job: string, failed: Sent[], timeoutMs: number): Promise<Sent[]> {
  const deadline = Date.now() + timeoutMs;
  let left = failed;
  while (left.length > 0 && Date.now() < deadline) {
    const next: Sent[] = [];
    for (const s of left) {
      const res = await stack.request('POST', '/api/public/v1/call/initiate', initiateBody(job, s.cands));
      // A call that an interrupted request did get started is reported as the candidate's active call.
      const active = res.status === 200 && res.body.data.calls.every((c: any) => c.status === 'success' || /active call/.test(c.message));
      if (!active) next.push(s);
    }
    left = next;
    if (left.length > 0) await sleep(2_000);
  }
  return left;
}

/** Every candidate ends with exactly one call, and it completes. */
async function oneCompletedCallEach(stack: ChaosStack, checks: Checks, job: string, cands: Cand[], label: string): Promise<void> {
  const by = await until(
    () => callsByCandidate(stack, job),
    (b) => cands.every((c) => b.get(c.id)?.[0]?.status === 'completed'),
    180_000,
  );
  const bad = cands.filter((c) => by.get(c.id)?.length !== 1 || by.get(c.id)![0].status !== 'completed');
  checks.that(
    bad.length === 0,
    `${label}: ${cands.length} candidates, each with exactly one call, all completed`,
    bad.map((c) => [c.id, by.get(c.id)?.map((x) => x.status)]),
  );
  const ids = new Set(cands.flatMap((c) => (by.get(c.id) ?? []).map((x) => x._id)));
  const dials = [...dialCounts(stack, ids).values()];
  checks.that(dials.every((n) => n === 1) && dials.length === cands.length, `${label}: one dial per call (${dials.length})`, dials);
}

/**
 * (c) The database stopped during traffic: requests answer 503 JSON within 5 s; after it is back, the
 * service recovers without a restart, the refused requests go through on retry, and the calls carry on.
 */
export async function databaseOutage(stack: ChaosStack, opts: { outageMs: number }): Promise<Checks> {
  const checks = new Checks(`database stopped for ${opts.outageMs / 1000} s during traffic`);
  const job = 'chaos-db-outage';
  await campaign(stack, job);
  const t = traffic(stack, job, 30, 4);
  await sleep(3_000);
  const stoppedAt = Date.now();
  await stack.db.stop();
  // FerretDB serves the connections it has for 3 s after SIGTERM: where a slow answer's request began against
  // the exit tells a request caught by the shutdown from one that waited twice on a database already gone.
  const exitedAfterMs = Date.now() - stoppedAt;
  await sleep(opts.outageMs);
  await stack.startDb();
  const restartedAt = Date.now();
  await until(
    async () => t.sent.filter((s) => s.at > restartedAt && succeeded(s.res)).length,
    (n) => n >= 4,
    60_000,
  );
  await t.stop();

  const during = t.sent.filter((s) => s.at >= stoppedAt && s.at + s.res.ms <= restartedAt);
  const bad = during.filter((s) => !(succeeded(s.res) || (isUnavailableBody(s.res) && s.res.ms < 5_000)));
  checks.that(
    during.length > 0 && bad.length === 0,
    `${during.length} requests during the outage: each 503 JSON within 5 s (slowest ${Math.round(Math.max(...during.map((s) => s.res.ms)))} ms)`,
    bad.map((s) => [
      s.res.status,
      Math.round(s.res.ms),
      `began ${s.at - stoppedAt} ms after SIGTERM; exit after ${exitedAfterMs} ms; request ${s.res.requestId}`,
      s.res.body,
    ]),
  );
  const fivexx = t.sent.filter((s) => (s.res.status >= 500 && s.res.status !== 503) || s.res.status === 0);
  checks.that(
    fivexx.length === 0,
    `no 5xx other than 503, no dropped connection, in ${t.sent.length} requests`,
    fivexx.map((s) => [s.res.status, s.res.body]),
  );
  const firstOk = t.sent.find((s) => s.at > restartedAt && succeeded(s.res));
  checks.that(
    Boolean(firstOk),
    `recovered without a restart: first success ${firstOk ? ((firstOk.at + firstOk.res.ms - restartedAt) / 1000).toFixed(1) : '?'} s after the database was back`,
  );

  const left = await retryUntilAccepted(
    stack,
    job,
    t.sent.filter((s) => !succeeded(s.res)),
    90_000,
  );
  checks.that(
    left.length === 0,
    `every refused request went through on retry (${t.sent.filter((s) => !succeeded(s.res)).length} retried)`,
    left.map((s) => s.cands[0].id),
  );
  await oneCompletedCallEach(
    stack,
    checks,
    job,
    t.sent.flatMap((s) => s.cands),
    'after the outage',
  );
  return checks;
}

/**
 * (d) Temporal stopped: call/initiate and invite answer 503 JSON and leave nothing that blocks the retry;
 * end-of-call reports Vapi sends meanwhile are refused (non-2xx), sent again, and not lost.
 */
export async function temporalOutage(stack: ChaosStack, opts: { outageMs: number }): Promise<Checks> {
  const checks = new Checks(`Temporal stopped for ${opts.outageMs / 1000} s`);
  const job = 'chaos-temporal-outage';
  await campaign(stack, job);
  const inFlight = candidates(40, 10);
  const placed = await stack.request('POST', '/api/public/v1/call/initiate', initiateBody(job, inFlight));
  checks.that(succeeded(placed), 'call/initiate of 10 before the outage accepted', placed.body);
  const ids = new Set<string>(placed.body.data.calls.map((c: any) => c.id));
  await until(
    async () => dialCounts(stack, ids).size,
    (n) => n === 10,
    60_000,
    100,
  );
  const refusedBefore = stack.vapi.refusedDeliveries;
  await stack.temporal.stop();
  const stoppedAt = Date.now();

  const refusedCalls = candidates(41, 3);
  const call = await stack.request('POST', '/api/public/v1/call/initiate', initiateBody(job, refusedCalls));
  const invite = await stack.request(
    'POST',
    '/api/public/v1/interview/invite',
    inviteBody([{ id: 'chaos-inv-1', name: 'Chaos Candidate', email: 'chaos.inv1@example.com' }], { ats_job_id: 'chaos-temporal-invite' }),
  );
  for (const [name, res] of [
    ['call/initiate', call],
    ['interview/invite', invite],
  ] as const) {
    checks.that(isUnavailableBody(res) && res.ms < 5_000, `${name} during the outage: 503 JSON in ${Math.round(res.ms)} ms`, [
      res.status,
      res.body,
    ]);
  }
  await sleep(Math.max(0, stoppedAt + opts.outageMs - Date.now()));
  await stack.startTemporal();
  const refused = stack.vapi.refusedDeliveries - refusedBefore;
  checks.that(refused > 0, `end-of-call reports sent during the outage were refused with non-2xx (${refused} times) and sent again`);

  const retried = await retryUntilAccepted(stack, job, [{ cands: refusedCalls, res: call, at: 0 }], 60_000);
  checks.that(retried.length === 0, 'the refused call/initiate went through on retry');
  const inviteAgain = await until(
    () =>
      stack.request(
        'POST',
        '/api/public/v1/interview/invite',
        inviteBody([{ id: 'chaos-inv-1', name: 'Chaos Candidate', email: 'chaos.inv1@example.com' }], {
          ats_job_id: 'chaos-temporal-invite',
        }),
      ),
    (r) => r.status === 200 && r.body.data.interviews[0].status === 'success',
    60_000,
    2_000,
  );
  checks.that(
    inviteAgain?.status === 200 && inviteAgain.body.data.interviews[0].status === 'success',
    'the refused invite went through on retry',
    inviteAgain?.body,
  );
  await oneCompletedCallEach(stack, checks, job, [...inFlight, ...refusedCalls], 'calls in flight and refused');
  return checks;
}

/** (e) Vapi answers 500, then 429, for a while, then recovers: attempts are retried, nothing is dialled twice. */
export async function providerErrors(stack: ChaosStack, opts: { failMs: number }): Promise<Checks> {
  const checks = new Checks(`Vapi answering 500 then 429 for ${(2 * opts.failMs) / 1000} s`);
  const job = 'chaos-provider-errors';
  await campaign(stack, job);
  const start = Date.now();
  stack.vapi.failDials(500, start + opts.failMs);
  const to429 = setTimeout(() => stack.vapi.failDials(429, start + 2 * opts.failMs), opts.failMs);
  const refusedBefore = stack.vapi.refusedDials;
  const cands = candidates(50, 10);
  const res = await stack.request('POST', '/api/public/v1/call/initiate', initiateBody(job, cands));
  checks.that(succeeded(res), 'call/initiate of 10 accepted while Vapi fails', res.body);
  await oneCompletedCallEach(stack, checks, job, cands, 'after Vapi recovered');
  clearTimeout(to429);
  checks.that(
    stack.vapi.refusedDials > refusedBefore,
    `Vapi refused ${stack.vapi.refusedDials - refusedBefore} dials and each was retried`,
  );
  const by = await callsByCandidate(stack, job);
  checks.that(
    cands.every((c) => by.get(c.id)?.[0]?.attempts.length === 1),
    'each call took one attempt: a refused dial is retried within its attempt',
  );
  return checks;
}
