import { adminStores } from '../../composition/admin-stores';
import { freePort } from '../../scripts/services';
import type { ServiceProcess } from '../../scripts/bench/processes';
import type { ChaosStack } from './stack';
import { scrape, sumOf } from '../helpers/prometheus';
import { Checks, candidates, dialCounts, initiateBody, until } from './checks';

/** The most intervals open at one moment. */
function mostAtOnce(intervals: Array<[number, number]>): number {
  const edges = intervals.flatMap(([from, to]): Array<[number, number]> => [
    [from, 1],
    [to, -1],
  ]);
  // An end and a start at the same millisecond: the end first (a slot given back, then taken).
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let most = 0;
  for (const [, step] of edges) most = Math.max(most, (open += step));
  return most;
}

/**
 * (h) Several processes, one engine: a second API and a second worker beside the first ones, on the same
 * Temporal and database, as docs/scaling.md runs them. 40 calls arrive through both APIs at once, in a
 * workspace of their own with a calling cap of `cap`; one worker is killed with SIGKILL mid-batch. Every call
 * must complete with its one attempt, dialled once; the cap must hold across both workers (never more
 * attempts under way at once than the cap); and a per-workspace rate limit must count the requests of
 * both APIs together.
 */
export async function severalProcesses(stack: ChaosStack, opts: { calls: number; cap: number }): Promise<Checks> {
  const checks = new Checks(`2 APIs and 2 workers, ${opts.calls} calls, one worker SIGKILLed`);
  const { workspace_id, api_key } = await adminStores(stack.store).workspaces.create({
    name: 'Scaling',
    company: 'Scaling Inc',
    senderFirstName: 'Ada',
    senderLastName: 'Lovelace',
  });
  await adminStores(stack.store).workspaces.updateSettings(workspace_id, { max_concurrent_calls: opts.cap });
  const port = String(await freePort());
  const extra: ServiceProcess[] = [];
  try {
    extra.push(await stack.startProcess('api', { PORT: port }));
    const second = await stack.startProcess('worker');
    extra.push(second);
    const apis = [stack.apiUrl, `http://127.0.0.1:${port}`];
    const ask = async (api: string, path: string, body: unknown) => {
      const res = await fetch(api + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-api-key': api_key },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as any, reset: res.headers.get('x-ratelimit-reset') };
    };

    const job = 'chaos-scaling';
    await ask(apis[0], '/api/public/v1/campaigns', { ats_job_id: job, name: job });
    const cands = candidates(60, opts.calls);
    cands.forEach((c) => stack.vapi.plan.set(c.phone, ['assistant-ended-call']));
    // Four requests, two through each API: each request's calls are started by a fan-out on one worker
    // (eagerly, on that worker: docs/scaling.md), so requests, not calls, are what spreads over workers.
    const parts = [0, 1, 2, 3].map((i) => cands.filter((_, k) => k % 4 === i));
    const answers = await Promise.all(parts.map((part, i) => ask(apis[i % 2], '/api/public/v1/call/initiate', initiateBody(job, part))));
    const ids = new Set<string>(answers.flatMap((a) => (a.body?.data?.calls ?? []).map((c: any) => c.id as string)));
    checks.that(
      answers.every((a) => a.status === 200) && ids.size === opts.calls,
      `call/initiate through both APIs accepted ${ids.size} calls`,
      answers.map((a) => a.status),
    );

    // Killed once calls are under way and it has taken its share of them (its own metrics say so), and not
    // started again: the first worker must finish the batch.
    const share = async () => {
      const samples = await scrape(second.metricsUrl!);
      // Summed over their series: one per workflow or activity type (and more), once the worker has run several.
      return (
        sumOf(samples, 'temporal_workflow_task_execution_latency_seconds_count') + sumOf(samples, 'temporal_activity_task_received_total')
      );
    };
    const itsShare = await until(share, (n) => n > 0, 30_000, 100);
    const open = (await stack.store.calls.find({ ats_job_id: job }).toArray()).filter((c) => c.status !== 'completed').length;
    await second.kill();
    checks.that(itsShare > 0, `the second worker had run ${itsShare} tasks of the batch when it was killed`, { itsShare });
    checks.that(open > 0, `it was killed with ${open} calls not yet completed`, { open });

    const done = await until(
      () => stack.store.calls.find({ ats_job_id: job }).toArray(),
      (calls) => calls.length === opts.calls && calls.every((c) => c.status === 'completed' || c.status === 'failed'),
      180_000,
    );
    const wrong = done.filter((c) => c.status !== 'completed' || c.attempts.length !== 1).map((c) => [c._id, c.status, c.attempts.length]);
    checks.that(wrong.length === 0, `all ${done.length} calls completed, each with its one attempt`, wrong);
    const dials = dialCounts(stack, ids);
    const twice = [...dials].filter(([, n]) => n !== 1);
    checks.that(twice.length === 0 && dials.size === opts.calls, `nothing was dialled twice (${dials.size} dials)`, twice);
    const intervals = done.flatMap((c) =>
      c.attempts.map((a): [number, number] => [a.started_at!.getTime(), (a.ended_at ?? new Date()).getTime()]),
    );
    const most = mostAtOnce(intervals);
    checks.that(most <= opts.cap, `the cap held across both workers: at most ${most} attempts at once (cap ${opts.cap})`, { most });

    // The AI limit (AI_RATE_LIMIT=5 a minute per workspace), through either API, until one is refused. Each
    // answer names its window's end (X-RateLimit-Reset), so the check counts the refused request's window
    // alone, however slow the machine is: a run that straddles two windows is read as it went, not raced.
    const parse = (api: string) => ask(api, '/api/public/v1/ai/parse-jd', { job_description: 'Senior Python engineer, 5+ years, remote.' });
    const parsed: Array<{ status: number; reset: string | null }> = [];
    while (parsed.length < 12 && parsed.at(-1)?.status !== 429) parsed.push(await parse(apis[parsed.length % 2]));
    const refused = parsed.at(-1)!;
    const inItsWindow = parsed.filter((a) => a.reset === refused.reset).map((a) => a.status);
    checks.that(
      JSON.stringify(inItsWindow) === JSON.stringify([200, 200, 200, 200, 200, 429]),
      `one rate limit across both APIs: ${inItsWindow.join(', ')} in the refusal's window (the sixth of 5 a minute refused)`,
      parsed,
    );
  } finally {
    for (const p of extra) await p.kill();
  }
  return checks;
}
