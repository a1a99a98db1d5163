import { realProvidersBench } from '../helpers/real-providers-bench';
import { endOfCallReport } from '../helpers/provider-wire';
import { recordHistory } from '../helpers/histories';

/**
 * The erasure as a durable workflow (docs/erasure.md), on the real stack with Vapi's wire format: one that meets
 * an attempt under way answers 202, holds the person (suppressed, the call cancelling), and ends on its own once
 * the attempt's report has come. The restart of a worker or the API mid-way is the chaos run's (scripts/chaos).
 */
describe('an erasure that waits', () => {
  const bench = realProvidersBench();
  const { signedVapi, providerCallIdOf, call, start } = bench;

  it('waits out an attempt under way: 202, the call cancelled after it, and the erasure ends on its own once the report has come', async () => {
    const callId = await start(71, {});
    const providerCallId = await providerCallIdOf(callId);
    // The dial is under way at Vapi, which holds it: no report yet.
    const erased = await bench.stack.request('POST', '/api/public/v1/candidates/erase', {
      key: bench.key,
      body: { phone: '+14155552071' },
    });
    expect(erased.status).toBe(202);
    expect(erased.body.data).toMatchObject({ erasure_id: expect.stringMatching(/^era_/), status: 'in_progress' });
    const erasureId = erased.body.data.erasure_id as string;
    // Held meanwhile: the person is suppressed, and the call is cancelling (no retry after this attempt).
    expect((await call(callId)).status).toBe('cancelling');
    const listed = await bench.stack.request('GET', '/api/public/v1/suppressions?source=erasure', { key: bench.key });
    expect(listed.body.data.length).toBeGreaterThan(0);

    const report = endOfCallReport({
      callId,
      attempt: 1,
      providerCallId,
      endedReason: 'customer-busy',
      messages: [{ role: 'user', message: 'My secret word is quince.' }],
    });
    expect((await signedVapi(report)).status).toBe(200);
    const counts = await bench.stack.temporal.workflow.getHandle(`erasure-${erasureId}`).result();
    expect(counts).toEqual({ calls: 1, interviews: 0, recordings: 0, provider_deletions: 1 });
    // Busy: the attempt failed, and the cancel it carried keeps any retry from following.
    const after = await bench.stack.db.calls.findOne({ _id: callId });
    expect(after).toMatchObject({ status: 'cancelled', candidate: { phone: '' } });
    // A date of the stack's realm (helpers/stack.ts), which `expect.any(Date)` of this file's would not match.
    expect(Object.prototype.toString.call(after?.erased_at)).toBe('[object Date]');
    expect(JSON.stringify(await bench.stack.db.callReports.find({ call_id: callId }).toArray())).not.toContain('quince');
    // What the erasure named is gone once it ended; its counts stay.
    expect(await bench.stack.db.erasures.findOne({ _id: erasureId })).toMatchObject({ status: 'done', target: null, counts });
    await recordHistory(bench.stack.temporal, `erasure-${erasureId}`, 'erasure-waited-for-attempt');
  }, 90_000);
});
