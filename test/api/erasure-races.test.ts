import { candidate, realProvidersBench } from '../helpers/real-providers-bench';
import { assistantRequest, endOfCallReport, identityToolCall, VAPI_PHONE_NUMBER_ID } from '../helpers/provider-wire';
import { waitFor } from '../helpers/wait';

/**
 * An erasure racing what begins as it does (docs/erasure.md), on the real stack with Vapi's wire format: a
 * candidate's call-back that reaches the call between the moment the erasure found the person and the moment its
 * suppression could refuse it is either answered "nothing pending" or waited out like any attempt under way, so
 * its report, which comes after the erasure's answer, is never kept and its copy at Vapi is deleted.
 */
describe('an erasure racing a call-back', () => {
  // The erasure answers 202 after a second where the others wait 8.
  const bench = realProvidersBench({ ERASURE_ANSWER_WITHIN_MS: '1000' });
  /** Longer than an erasure once waited for a waiting call's cancel to end before it went on regardless (10 s). */
  const LONG_CONVERSATION_MS = 11_000;
  const { signedVapi, providerCallIdOf, call, start } = bench;

  it('waits out a call-back that began as the erasure did (0 to 75 ms after it): nothing of its report remains, and its copy at Vapi is deleted', async () => {
    const retry = { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 2, unit: 'hours' }] } };
    const race = async (i: number, delayMs: number) => {
      const callId = await start(i, retry);
      const dialled = await providerCallIdOf(callId);
      await signedVapi(endOfCallReport({ callId, attempt: 1, providerCallId: dialled, endedReason: 'customer-did-not-answer' }));
      await waitFor(
        () => call(callId),
        (c) => c.status === 'scheduled' && c.next_attempt_at !== null,
      );
      const inbound = `inbound-race-${i}`;
      const began = Date.now();
      const erasing = bench.stack.request('POST', '/api/public/v1/candidates/erase', {
        key: bench.key,
        body: { phone: candidate(i).phone },
      });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const answer = await signedVapi(
        assistantRequest({ numberId: VAPI_PHONE_NUMBER_ID, from: candidate(i).phone, providerCallId: inbound }),
      );
      const taken = answer.body.assistant.metadata?.call_id === callId;
      if (taken) {
        // The caller gives their name and talks: a report with words and a recording comes.
        await waitFor(
          () => bench.stack.db.calls.findOne({ _id: callId }),
          (c) => c?.attempts[1]?.provider_call_id === inbound,
        );
        await signedVapi(identityToolCall({ callId, attempt: 2, providerCallId: inbound, name: 'Grace Hopper' }));
        const report = endOfCallReport({
          callId,
          attempt: 2,
          providerCallId: inbound,
          endedReason: 'assistant-ended-call',
          direction: 'inbound',
          structuredData: { years: 3 },
          messages: [{ role: 'user', message: 'My secret word is quince.' }],
        });
        // The conversation outlasts the erasure's answer, and the wait an erasure once gave a cancel before it
        // went on regardless: its report comes after both, and the erasure is still waiting for it.
        const erased = await erasing;
        expect(erased.status).toBe(202);
        await new Promise((resolve) => setTimeout(resolve, began + LONG_CONVERSATION_MS - Date.now()));
        expect(await bench.stack.db.erasures.findOne({ _id: erased.body.data.erasure_id })).toMatchObject({ status: 'running' });
        expect((await signedVapi(report)).status).toBe(200);
        await bench.stack.temporal.workflow.getHandle(`erasure-${erased.body.data.erasure_id}`).result();
      } else {
        const erased = await erasing;
        if (erased.status === 202) await bench.stack.temporal.workflow.getHandle(`erasure-${erased.body.data.erasure_id}`).result();
      }
      const after = await bench.stack.db.calls.findOne({ _id: callId });
      expect(after).toMatchObject({ candidate: { phone: '' } });
      expect(after?.attempts.some((a) => a.ended_at === null)).toBe(false);
      // No report of the call remains, and Vapi is asked to delete its copy of each of its calls (the workflow
      // that asks does so until Vapi answers: test/api/erasure-waits.test.ts).
      expect(await bench.stack.db.callReports.find({ call_id: callId }).toArray()).toEqual([]);
      for (const id of taken ? [dialled, inbound] : [dialled])
        await waitFor(
          async () => bench.vapi.requests.filter((r) => r.method === 'DELETE' && r.path === `/call/${id}`).length,
          (n) => n >= 1,
          30_000,
        );
      return taken;
    };
    const taken = await Promise.all([0, 25, 50, 75].map((delay, n) => race(72 + n, delay)));
    // Whichever way each went, nothing came back; that some were taken shows the race was run.
    expect(taken).toHaveLength(4);
  }, 90_000);
});
