import { realProvidersBench, candidate } from '../helpers/real-providers-bench';
import { waitFor } from '../helpers/wait';
import { assistantRequest, endOfCallReport, identityToolCall } from '../helpers/provider-wire';

/**
 * A call-back completes only for the candidate the identity tool confirmed (docs/calls.md): the server records
 * which inbound attempt, on which provider call, the tool confirmed, and a report of an attempt it never
 * confirmed counts for nothing whatever it carries (the gate's assistant carries the call's extraction, so Vapi
 * extracts from the gate's own transcript). On the real API, worker, database and Temporal, with the Vapi
 * adapter against a local server that speaks Vapi's wire format; Vapi's messages are played as it sends them.
 */
describe('call-backs: the identity that lets a report count', () => {
  const bench = realProvidersBench();
  const { signedVapi, providerCallIdOf, call, start } = bench;
  const VOICE = 'vapi-number-identity';
  const retryIn2Hours = { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 2, unit: 'hours' }] } };

  beforeAll(async () => {
    expect(await bench.stack.stores.workspaces.setNumbers(bench.workspaceId, { voice: VOICE })).toEqual({ set: true });
  });

  /** A call of the bench's workspace whose first dial was missed: it waits two hours for its retry. */
  async function waitingForRetry(i: number) {
    const callId = await start(i, retryIn2Hours);
    const providerCallId = await providerCallIdOf(callId);
    await signedVapi(endOfCallReport({ callId, attempt: 1, providerCallId, endedReason: 'customer-did-not-answer' }));
    await waitFor(
      () => call(callId),
      (c) => c.status === 'scheduled' && c.next_attempt_at !== null,
    );
    return callId;
  }
  /** The candidate `i` calls the workspace's number back as `providerCallId`: the call-back is recorded as attempt `attempt`. */
  async function callBack(i: number, callId: string, attempt: number, providerCallId: string) {
    const res = await signedVapi(assistantRequest({ numberId: VOICE, from: candidate(i).phone, providerCallId }));
    expect(res.body.assistant.metadata).toEqual({ call_id: callId, attempt, direction: 'inbound' });
    await waitFor(
      () => bench.stack.db.calls.findOne({ _id: callId }),
      (c) => c?.attempts[attempt - 1]?.provider_call_id === providerCallId,
    );
  }
  /** The identity tool called with these names in one message: each one's result, in order. */
  async function identify(callId: string, attempt: number, providerCallId: string, names: string[]) {
    const [name, ...more] = names;
    const res = await signedVapi(identityToolCall({ callId, attempt, providerCallId, name, more }));
    expect(res.status).toBe(200);
    return (res.body.results as Array<{ result: string }>).map((r) => (r.result.startsWith('Confirmed') ? 'confirmed' : 'not confirmed'));
  }
  /** The call once attempt `attempt` has its outcome and the call has moved on from it (its status is written after). */
  const ended = (callId: string, attempt: number) =>
    waitFor(
      () => call(callId),
      (c) => c.attempts.length === attempt && c.attempts[attempt - 1].outcome !== null && c.status !== 'in_progress',
    );
  const report = (
    callId: string,
    attempt: number,
    providerCallId: string,
    extra: { structuredData?: unknown; successEvaluation?: string },
  ) =>
    signedVapi(endOfCallReport({ callId, attempt, providerCallId, endedReason: 'assistant-ended-call', direction: 'inbound', ...extra }));

  it("counts nothing of a call-back's report without the identity tool's confirmation: a stranger's false, or a 'true' evaluation, fails as call_back_incomplete, kept nowhere, and its copy at Vapi is deleted", async () => {
    const callId = await waitingForRetry(80);
    // A caller who never gives a name; Vapi extracts a `false` from the gate's transcript.
    await callBack(80, callId, 2, 'inbound-unnamed');
    expect((await report(callId, 2, 'inbound-unnamed', { structuredData: { available: false } })).status).toBe(200);
    const first = await ended(callId, 2);
    expect(first).toMatchObject({ status: 'scheduled', extracted_variables: null, transcript: null });
    expect(first.attempts[1]).toMatchObject({
      direction: 'inbound',
      outcome: 'failed',
      failure_reason: 'call_back_incomplete',
      recording_url: null,
    });
    // Nothing of the conversation is kept, not even in the report as it arrived.
    const kept = await bench.stack.db.callReports.findOne({ _id: `${callId}/2` });
    expect(kept).toMatchObject({ result: 'call_back_incomplete', transcript: null, recording_url: null, extracted_json: 'null' });
    // Vapi is asked to delete its copy (by the workflow that asks until Vapi answers: test/api/erasure-waits.test.ts).
    await waitFor(
      async () => bench.vapi.requests.filter((r) => r.method === 'DELETE' && r.path === '/call/inbound-unnamed').length,
      (n) => n >= 1,
      30_000,
    );

    // An empty extraction with Vapi's success evaluation "true": still no one confirmed.
    await callBack(80, callId, 3, 'inbound-evaluated');
    await report(callId, 3, 'inbound-evaluated', { structuredData: {}, successEvaluation: 'true' });
    const second = await ended(callId, 3);
    expect(second.attempts[2]).toMatchObject({ outcome: 'failed', failure_reason: 'call_back_incomplete' });
    expect(second.status).toBe('scheduled');
  });

  it('confirms one name at a time, two per inbound call, and never a list of names; after a confirmation a filled variable completes the call', async () => {
    const callId = await waitingForRetry(81);
    await callBack(81, callId, 2, 'inbound-list');
    // Twenty common names in one breath hold the candidate's, but are not a name.
    const crowd =
      'James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan Joseph Jessica Thomas Sarah Grace Hopper';
    expect(await identify(callId, 2, 'inbound-list', [crowd])).toEqual(['not confirmed']);
    // Six words are not one name either; and this was the call's second try: the right name comes too late.
    expect(await identify(callId, 2, 'inbound-list', ['Grace Ada Mary Lou Anne Hopper'])).toEqual(['not confirmed']);
    expect(await identify(callId, 2, 'inbound-list', ['Grace Hopper'])).toEqual(['not confirmed']);
    await report(callId, 2, 'inbound-list', { structuredData: { years: 4 } });
    expect((await ended(callId, 2)).attempts[1]).toMatchObject({ outcome: 'failed', failure_reason: 'call_back_incomplete' });

    // Three names in one message are judged in order against the call's two tries: the third is never judged.
    await callBack(81, callId, 3, 'inbound-three');
    expect(await identify(callId, 3, 'inbound-three', ['Alan Turing', 'Ada Lovelace', 'Grace Hopper'])).toEqual([
      'not confirmed',
      'not confirmed',
      'not confirmed',
    ]);
    await report(callId, 3, 'inbound-three', { structuredData: { years: 4 } });
    expect((await ended(callId, 3)).attempts[2]).toMatchObject({ outcome: 'failed', failure_reason: 'call_back_incomplete' });

    // A wrong name, then the candidate's in the same message: the second try confirms, and the report counts.
    await callBack(81, callId, 4, 'inbound-right');
    expect(await identify(callId, 4, 'inbound-right', ['Alan Turing', 'Grace Hopper'])).toEqual(['not confirmed', 'confirmed']);
    await report(callId, 4, 'inbound-right', { structuredData: { available: false } });
    const done = await waitFor(
      () => call(callId),
      (c) => c.status === 'completed',
    );
    expect(done.extracted_variables).toEqual({ available: false });
    expect(done.attempts[3]).toMatchObject({ direction: 'inbound', outcome: 'completed' });
  });
});
