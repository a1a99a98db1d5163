import { readFileSync } from 'node:fs';
import { FAULT_POINTS } from '../../infra/fault-points';
import { freePort } from '../../scripts/services';
import type { ChaosStack } from './stack';
import {
  Checks,
  FALLBACK,
  PRE_CALL,
  callsByCandidate,
  campaign,
  candidates,
  dialCounts,
  initiateBody,
  listsAgree,
  sleep,
  until,
} from './checks';

/** How long a kill waits for a template to hold before it comes anyway. */
const MID_SEND_WAIT_MS = 6_000;

/** A scripted candidate: Vapi's endedReason per attempt, and what must follow from it. */
const SCRIPTS = [
  { reasons: ['assistant-ended-call'], status: 'completed', outcomes: ['completed'], fallback: false },
  { reasons: ['customer-did-not-answer', 'assistant-ended-call'], status: 'completed', outcomes: ['failed', 'completed'], fallback: false },
  { reasons: ['customer-did-not-answer'], status: 'failed', outcomes: ['failed', 'failed'], fallback: true },
] as const;

/**
 * (a) The worker process is killed with SIGKILL at random moments during a batch of calls with retries and
 * WhatsApp templates, and started again each time. Every call must end as its script says, with exactly its
 * attempts, one dial per attempt at the provider and each template sent once.
 */
export async function workerKills(stack: ChaosStack, opts: { calls: number; kills: number; seed: number }): Promise<Checks> {
  const checks = new Checks(`worker SIGKILL x${opts.kills} during ${opts.calls} calls`);
  const job = 'chaos-worker-kills';
  const since = new Date();
  await campaign(stack, job);
  const cands = candidates(11, opts.calls);
  cands.forEach((c, i) => stack.vapi.plan.set(c.phone, [...SCRIPTS[i % 3].reasons]));
  const res = await stack.request(
    'POST',
    '/api/public/v1/call/initiate',
    initiateBody(job, cands, {
      retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 0.05, unit: 'minutes' }] },
      whatsapp_notifications: { pre_call: PRE_CALL, fallback: FALLBACK },
    }),
  );
  checks.that(
    res.status === 200 && res.body.data.calls.every((c: any) => c.status === 'success'),
    `call/initiate of ${opts.calls} accepted`,
    res.body,
  );

  // Each kill comes a random 0.5 to 6 s after the worker (re)started, from a seeded generator so a failing
  // run can be repeated, and must find calls still under way.
  let seed = opts.seed;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const unfinished = async () =>
    (await stack.store.calls.find({ ats_job_id: job }).toArray()).filter((c) => c.status !== 'completed' && c.status !== 'failed').length;
  const hits: string[] = [];
  const heldSends: Array<{ to: string; template: string }> = [];
  for (let k = 0; k < opts.kills; k++) {
    const wait = 500 + Math.round(random() * 5_500);
    await sleep(wait);
    // The kill is timed into a send where one comes soon: WhatsApp holds the next template unanswered, and
    // the worker dies while its request is out (the message may have gone; the next worker must not send it).
    const hold = stack.holdNextTemplate();
    const held = await Promise.race([hold.held, sleep(MID_SEND_WAIT_MS).then(() => null)]);
    const open = await unfinished();
    await stack.worker.kill();
    hold.release();
    if (held) heldSends.push({ to: `+${held.body.to}`, template: held.body.template?.name });
    hits.push(`+${(wait / 1000).toFixed(1)} s${held ? ', mid-send,' : ''} with ${open} calls under way`);
    checks.that(open > 0, `kill ${k + 1} came while calls were under way`, { open });
    stack.worker = await stack.startProcess('worker');
  }
  checks.note(`worker killed ${hits.join('; ')} (each after its restart), and restarted each time`);
  checks.note(`${heldSends.length} of ${opts.kills} kills came while WhatsApp held a template the worker was sending`);

  const ids = new Set<string>(res.body.data.calls.map((c: any) => c.id));
  const final = await until(
    () => callsByCandidate(stack, job),
    (by) => [...by.values()].flat().every((c) => c.status === 'completed' || c.status === 'failed') && by.size === opts.calls,
    240_000,
  );
  const wrong = cands.flatMap((c, i) => {
    const [call, ...extra] = final.get(c.id) ?? [];
    const s = SCRIPTS[i % 3];
    const got = { status: call?.status, outcomes: call?.attempts.map((a) => a.outcome), extra: extra.length };
    return got.status === s.status && JSON.stringify(got.outcomes) === JSON.stringify(s.outcomes) && got.extra === 0
      ? []
      : [{ candidate: c.id, got }];
  });
  checks.that(wrong.length === 0, `every call ended as scripted with exactly its attempts (${opts.calls} calls)`, wrong);

  const expectedAttempts = cands.reduce((n, _, i) => n + SCRIPTS[i % 3].outcomes.length, 0);
  const dials = dialCounts(stack, ids);
  const twice = [...dials].filter(([, n]) => n !== 1);
  checks.that(
    twice.length === 0 && dials.size === expectedAttempts,
    `the provider saw exactly one dial per attempt (${dials.size} dials)`,
    { twice, dials: dials.size, expectedAttempts },
  );

  const phones = new Set(cands.map((c) => c.phone));
  const sends = new Map<string, number>();
  for (const r of stack.graph.requests) {
    const to = `+${String(r.body?.to ?? '').replace(/^\+/, '')}`;
    if (r.method !== 'POST' || !phones.has(to)) continue;
    const k = `${to}/${r.body.template?.name}`;
    sends.set(k, (sends.get(k) ?? 0) + 1);
  }
  const expected = new Map<string, number>();
  cands.forEach((c, i) => {
    expected.set(`${c.phone}/interview_reminder`, 1);
    if (SCRIPTS[i % 3].fallback) expected.set(`${c.phone}/missed_you`, 1);
  });
  /** What the call recorded of the template `k` (`<phone>/<template name>`). */
  const recorded = (k: string) => {
    const [phone, template] = k.split('/');
    const call = final.get(cands.find((c) => c.phone === phone)?.id ?? '')?.[0];
    return call?.messages.find((m) => m.kind === (template === FALLBACK.template_name ? 'fallback' : 'pre_call'))?.status;
  };
  // Never twice. Once, but where the worker died between claiming the send and its request (a window of a
  // request's write): then none, and the message is recorded unknown, as it may have gone for all the next
  // worker can tell.
  const unsent = [...expected.keys()].filter((k) => !sends.has(k) && recorded(k) === 'unknown');
  const sendProblems = [...new Set([...sends.keys(), ...expected.keys()])].filter(
    (k) => sends.get(k) !== expected.get(k) && !unsent.includes(k),
  );
  const total = [...sends.values()].reduce((a, b) => a + b, 0);
  checks.that(
    sendProblems.length === 0,
    `each WhatsApp template was sent once, none twice (${total} sends; ${unsent.length} not sent, their worker killed between the claim and the request, recorded unknown)`,
    sendProblems.map((k) => [k, sends.get(k) ?? 0, recorded(k)]),
  );
  // A template whose worker died while WhatsApp held it may have gone: it is recorded unknown, never sent again.
  const heldNotUnknown = heldSends.filter(({ to, template }) => {
    const i = cands.findIndex((c) => c.phone === to);
    const kind = template === FALLBACK.template_name ? 'fallback' : 'pre_call';
    return final.get(cands[i]?.id)?.[0]?.messages.find((m) => m.kind === kind)?.status !== 'unknown';
  });
  checks.that(
    heldNotUnknown.length === 0,
    `each template held at a kill was recorded unknown and not sent again (${heldSends.length} held)`,
    heldNotUnknown,
  );
  await listsAgree(stack, checks, job, since);
  return checks;
}

/**
 * (b) The API process is held at a point between the database write and the response and killed there
 * with SIGKILL. The client's retry of the same request must place no second call, and the call must happen.
 */
export async function apiKills(stack: ChaosStack): Promise<Checks> {
  const checks = new Checks('API SIGKILL between the database write and the response');
  const job = 'chaos-api-kills';
  const since = new Date();
  await campaign(stack, job);
  let series = 20;
  for (const point of FAULT_POINTS) {
    const cands = candidates(series++, 3);
    const port = String(await freePort());
    const held = await stack.startProcess('api', { PORT: port, FAULT_HOLD_AT: point });
    const log = stack.logFile('api');
    const body = initiateBody(job, cands);
    const first = fetch(`http://127.0.0.1:${port}/api/public/v1/call/initiate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': stack.key },
      body: JSON.stringify(body),
    }).then(
      (r) => r.status,
      () => 0,
    );
    const reached = await until(async () => readFileSync(log, 'utf8').includes('fault point reached'), Boolean, 30_000, 50);
    await held.kill();
    const firstStatus = await first;
    checks.that(reached && firstStatus === 0, `${point}: API killed there; the client saw no response`, { reached, firstStatus });

    const retry = await stack.request('POST', '/api/public/v1/call/initiate', body);
    checks.that(retry.status === 200, `${point}: the client's retry answered 200`, retry.body);
    const final = await until(
      () => callsByCandidate(stack, job),
      (by) => cands.every((c) => by.get(c.id)?.[0]?.status === 'completed'),
      90_000,
    );
    const counts = cands.map((c) => final.get(c.id)?.length ?? 0);
    checks.that(
      counts.every((n) => n === 1),
      `${point}: one call per candidate after the retry (${counts.join(', ')})`,
      counts,
    );
    checks.that(
      cands.every((c) => final.get(c.id)?.[0]?.status === 'completed'),
      `${point}: every call happened (completed)`,
      cands.map((c) => final.get(c.id)?.[0]?.status),
    );
    const ids = new Set(cands.flatMap((c) => (final.get(c.id) ?? []).map((x) => x._id)));
    const dials = [...dialCounts(stack, ids).values()];
    checks.that(dials.length === 3 && dials.every((n) => n === 1), `${point}: one dial per call`, dials);
    const messages = (retry.body?.data?.calls ?? []).map((c: any) => c.message);
    checks.note(`${point}: the retry said ${JSON.stringify(messages[0])}`);
  }
  // A request killed after its records were written left entries of calls it may have taken back or kept.
  await listsAgree(stack, checks, job, since);
  return checks;
}
