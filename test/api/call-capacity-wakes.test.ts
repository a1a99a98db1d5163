import { realProvidersBench } from '../helpers/real-providers-bench';
import { endOfCallReport } from '../helpers/provider-wire';
import { waitFor } from '../helpers/wait';
import { capacityWaitMs } from '../../shared/calls/capacity';

/**
 * A calling slot given back wakes the calls that wait for one (composition/call-capacity.ts), on the real API,
 * worker, database and Temporal, with the Vapi adapter against a local server that speaks its wire format: the
 * test ends the call that holds the workspace's one slot when it chooses, with Vapi's end-of-call report.
 */
describe('a calling slot given back', () => {
  const bench = realProvidersBench();
  const woken = async () => (await bench.stack.modules.metrics.capacityWakes.get()).values[0]?.value ?? 0;

  it('lets a call waiting for it dial at once, not at its next look', async () => {
    await bench.stack.stores.workspaces.updateSettings(bench.workspaceId, { max_concurrent_calls: 1 });
    const holding = await bench.start(0, {});
    const providerCallId = await bench.providerCallIdOf(holding);
    const sentAt = Date.now();
    const waiting = await bench.start(1, {});
    await waitFor(
      () => bench.call(waiting),
      (c) => c.status === 'waiting_for_capacity',
    );
    // The waiter looks again 1, 3, 7 and 15 s after it began waiting (which is after `sentAt`), each gap up to
    // a quarter longer: once its third look is over, its fourth is 15 s or more after `sentAt`.
    const thirdLookAtLatest = [0, 1, 2].reduce((sum, n) => sum + capacityWaitMs(n, 1), 0);
    await new Promise((r) => setTimeout(r, thirdLookAtLatest + 500));
    expect(bench.vapi.requests.filter((r) => r.body?.assistant?.metadata?.call_id === waiting)).toEqual([]);
    const wokenBefore = await woken();

    const endedAt = Date.now();
    const report = endOfCallReport({ callId: holding, attempt: 1, providerCallId, endedReason: 'customer-ended-call' });
    expect((await bench.signedVapi(report)).status).toBe(200);
    await bench.dialOf(waiting);
    const dialledAt = Date.now();
    // Well before its fourth look: the slot's give-back woke it.
    expect({
      sinceSent: dialledAt - sentAt < capacityWaitMs(0, 0) + capacityWaitMs(1, 0) + capacityWaitMs(2, 0) + capacityWaitMs(3, 0) - 500,
    }).toEqual({
      sinceSent: true,
    });
    expect(dialledAt - endedAt).toBeLessThan(5_000);
    expect(await woken()).toBeGreaterThan(wokenBefore);
  }, 60_000);
});
