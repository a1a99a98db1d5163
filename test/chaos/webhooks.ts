import { Webhook } from 'standardwebhooks';
import { adminStores } from '../../composition/admin-stores';
import { startHttpStub } from '../helpers/http-stub';
import { attemptsAtOnce } from '../helpers/attempts-at-once';
import type { ChaosStack } from './stack';
import { Checks, callsByCandidate, candidates, initiateBody, until } from './checks';

/** The call events every completed call announces, in order. */
const COMPLETED_CALL = ['call.scheduled', 'call.attempt.ended', 'call.completed'];

/**
 * (g) The worker is killed with SIGKILL while calls hold the workspace's calling slots and webhook deliveries
 * wait for their retry (the receiver refuses each event's first try). Every call must end, every event must
 * reach the receiver, verified and exactly as announced (one id per event, the same body on every try), and
 * every slot must be free again.
 */
export async function webhookKills(stack: ChaosStack, opts: { calls: number; cap: number; kills: number }): Promise<Checks> {
  const checks = new Checks(`worker SIGKILL x${opts.kills} mid-call and mid-delivery, ${opts.calls} calls at a cap of ${opts.cap}`);
  const job = 'chaos-webhooks';
  // A workspace of its own: its cap, slots and webhooks are not shared with the calls other scenarios left running.
  const workspace = await adminStores(stack.store).workspaces.create({
    name: 'Hooks',
    company: 'Hooks Inc',
    senderFirstName: 'Ada',
    senderLastName: 'Lovelace',
  });
  const as = { 'x-service-api-key': workspace.api_key };
  const workspaceId = workspace.workspace_id;
  const tries = new Map<string, number>();
  const receiver = await startHttpStub((req) => {
    const id = String(req.headers['webhook-id']);
    tries.set(id, (tries.get(id) ?? 0) + 1);
    return tries.get(id) === 1 ? { status: 503, body: 'restarting' } : { status: 204 };
  });
  await adminStores(stack.store).workspaces.updateSettings(workspaceId, { max_concurrent_calls: opts.cap });
  const hook = await stack.request('POST', '/api/public/v1/webhooks', { url: `${receiver.url}/chaos` }, as);
  try {
    checks.that(hook.status === 201, 'a webhook endpoint registered for every event', hook.body);
    await stack.request('POST', '/api/public/v1/campaigns', { ats_job_id: job, name: job }, as);
    const cands = candidates(60, opts.calls);
    const res = await stack.request('POST', '/api/public/v1/call/initiate', initiateBody(job, cands), as);
    checks.that(res.status === 200, `call/initiate of ${opts.calls} accepted`, res.body);
    const ids = new Set<string>(res.body.data.calls.map((c: { id: string }) => c.id));

    let before: string[] = [];
    for (let k = 0; k < opts.kills; k++) {
      // Killed while attempts hold slots with their calls placed, each kill during attempts the worker before
      // it did not start, and while events still wait for delivery. The provider holds the calls placed from
      // here until the worker is back: a wave of calls lasts about 2 s and waiters look again seconds later,
      // so without the hold a kill could fall between waves, with no slot held (it did, once, and failed a
      // CI run). A slot counts once its dial has reached the provider and its activity recorded it, not when
      // it is taken, and the kill waits until every held slot's has: a dial it cut off would hold its slot for
      // the dial activity's 30 s (it did, and (g) took 91 s where it takes 40).
      stack.vapi.hold();
      const held =
        (await until(
          async () => {
            const holders = await slotHolders(stack, workspaceId, opts.cap);
            return (await Promise.all(holders.map((h) => dialRecorded(stack, h)))).every(Boolean) ? holders : [];
          },
          (calls) => calls.some((h) => !before.includes(h)),
          // After a kill, the next wave waits for the reports of the last one (their workflows' tasks wait out
          // the dead worker's sticky queue first) and then for the waiters' next look, up to 19 s later.
          60_000,
          100,
        )) ?? [];
      await stack.worker.kill();
      const delivered = [...tries.values()].filter((n) => n >= 2).length;
      checks.that(
        held.some((h) => !before.includes(h)) && delivered < opts.calls * COMPLETED_CALL.length,
        `kill ${k + 1} with ${held.length} of ${opts.cap} slots held by new attempts on placed calls and ${delivered} events delivered of ${opts.calls * COMPLETED_CALL.length}`,
        held,
      );
      before = held;
      stack.worker = await stack.startProcess('worker');
      stack.vapi.release();
    }

    const by = await until(
      () => callsByCandidate(stack, job),
      (b) => [...b.values()].flat().every((c) => c.status === 'completed') && b.size === opts.calls,
      180_000,
    );
    const calls = [...by.values()].flat();
    checks.that(
      calls.length === opts.calls && calls.every((c) => c.status === 'completed'),
      `every call completed (${calls.length})`,
      calls.map((c) => c.status),
    );

    // Each event twice (a refused try, then a delivered one); wait for the last of them.
    const expected = opts.calls * COMPLETED_CALL.length;
    await until(
      async () => [...tries.values()].filter((n) => n >= 2).length,
      (n) => n >= expected,
      120_000,
    );
    const secret = hook.body.data.secret as string;
    const bodies = new Map<string, Set<string>>();
    const events = new Map<string, { type: string; data: { id: string; sequence: number } }>();
    let unverified = 0;
    for (const r of receiver.requests) {
      try {
        const e = new Webhook(secret).verify(r.raw, r.headers as Record<string, string>) as { id: string; type: string; data: any };
        events.set(e.id, e);
        bodies.set(e.id, (bodies.get(e.id) ?? new Set()).add(r.raw));
      } catch {
        unverified++;
      }
    }
    checks.that(unverified === 0, `every try verified with standardwebhooks (${receiver.requests.length} tries)`, { unverified });
    const ofCall = (id: string) =>
      [...events.values()]
        .filter((e) => e.data.id === id)
        .sort((a, b) => a.data.sequence - b.data.sequence)
        .map((e) => e.type);
    const wrong = [...ids].filter((id) => JSON.stringify(ofCall(id)) !== JSON.stringify(COMPLETED_CALL));
    checks.that(
      wrong.length === 0,
      `each call's events arrived once each, in sequence (${events.size} events)`,
      wrong.map((id) => [id, ofCall(id)]),
    );
    const changed = [...bodies].filter(([, b]) => b.size !== 1).map(([id]) => id);
    checks.that(changed.length === 0, 'every try of an event carried the same body', changed);
    const delivered = [...tries.values()].filter((n) => n >= 2).length;
    checks.that(delivered === events.size, `every event was delivered after its refused first try (${delivered})`, {
      delivered,
      events: events.size,
    });

    const held = await slotHolders(stack, workspaceId, opts.cap);
    checks.that(held.length === 0, 'no calling slot is held once every call has ended', { held });
    const most = attemptsAtOnce(calls);
    checks.that(most <= opts.cap, `at most ${opts.cap} attempts were under way at once (${most})`, { most });
  } finally {
    if (hook.status === 201) await stack.request('DELETE', `/api/public/v1/webhooks/${hook.body.data.id}`, undefined, as);
    await receiver.close();
  }
  return checks;
}

/** Whether a slot holder's (`<call>/<attempt>`) dial reached the provider, and its activity recorded it. */
async function dialRecorded(stack: ChaosStack, holder: string): Promise<boolean> {
  const [callId, attempt] = holder.split('/');
  const placed = stack.vapi.dials.some((d) => d.callId === callId && String(d.attempt) === attempt);
  const call = placed ? await stack.store.calls.findOne({ _id: callId }) : null;
  return !!call?.attempts[Number(attempt) - 1]?.provider_call_id;
}

/** The holders (`<call>/<attempt>`) of the workspace's calling slots now, leases run out left out. */
async function slotHolders(stack: ChaosStack, workspaceId: string, cap: number): Promise<string[]> {
  const slots = await Promise.all(
    Array.from({ length: cap }, (_, i) => stack.store.claims.findOne({ _id: `call-slot/${workspaceId}/${i}` })),
  );
  return slots.flatMap((s) => (s !== null && (!s.expires_at || s.expires_at > new Date()) ? [s.holder] : []));
}
