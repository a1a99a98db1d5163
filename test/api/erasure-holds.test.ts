import { realProvidersBench } from '../helpers/real-providers-bench';
import { endOfCallReport } from '../helpers/provider-wire';
import { waitFor } from '../helpers/wait';
import { invitedInterview } from '../helpers/invite';
import { keyedId } from '../../infra/ids';
import { recordHistory } from '../helpers/histories';

/**
 * Nothing brings an erased person's data back (docs/erasure.md), on the real stack with Vapi's wire format: a
 * provider's report that arrives after the erasure, and an answer or a recording that finishes after it.
 */
describe('an erasure that holds', () => {
  const bench = realProvidersBench();
  const { signedVapi, providerCallIdOf, call, start } = bench;
  const refused = async (kind: string) =>
    (await bench.stack.modules.metrics.registry.getSingleMetric('hiring_erased_writes_refused_total')!.get()).values.find(
      (v) => v.labels.kind === kind,
    )?.value ?? 0;

  it("acknowledges a provider's report of an erased call, keeps nothing of it, and counts it", async () => {
    const callId = await start(70, {});
    const providerCallId = await providerCallIdOf(callId);
    const report = (transcriptWord: string) =>
      endOfCallReport({
        callId,
        attempt: 1,
        providerCallId,
        endedReason: 'assistant-ended-call',
        messages: [{ role: 'user', message: `My secret word is ${transcriptWord}.` }],
      });
    expect((await signedVapi(report('first'))).status).toBe(200);
    await waitFor(
      () => call(callId),
      (c) => c.status === 'completed',
    );
    const erased = await bench.stack.request('POST', '/api/public/v1/candidates/erase', {
      key: bench.key,
      body: { phone: '+14155552070' },
    });
    expect(erased.body.data).toMatchObject({ calls: 1, provider_deletions: 1 });
    // Vapi is asked to delete its copy (name, number, transcript, recording), again after it failed once.
    const deletes = await waitFor(
      async () => bench.vapi.requests.filter((r) => r.method === 'DELETE' && r.path === `/call/${providerCallId}`),
      (d) => d.length === 2,
      30_000,
    );
    expect(deletes[1].headers.authorization).toBe('Bearer vapi-private-key');
    const deletion = bench.stack.temporal.workflow.getHandle(`provider-deletions-${keyedId('pd', `vapi:${providerCallId}`)}`);
    expect(await deletion.result()).toEqual({ deleted: 1, gone: 0, unsupported: 0 });
    await recordHistory(bench.stack.temporal, deletion.workflowId, 'provider-deletion-retried');
    const before = await refused('report');

    // Vapi sends the report again (or another copy of it arrives late): 2xx, and nothing of it lands.
    const late = await signedVapi(report('pineapple'));
    expect(late.status).toBe(200);
    const after = await call(callId);
    expect(after).toMatchObject({ transcript: null, extracted_variables: null, erased_at: expect.any(String) });
    expect(after.attempts[0].recording_url).toBeNull();
    const stored = JSON.stringify([
      await bench.stack.db.calls.findOne({ _id: callId }),
      await bench.stack.db.callReports.find({ call_id: callId }).toArray(),
    ]);
    expect(stored).not.toContain('pineapple');
    expect(stored).not.toContain('storage.vapi.ai');
    expect(await refused('report')).toBe(before + 1);

    // A report of a copy the erasure never knew of (an attempt that began while it ran): kept nowhere, and the
    // provider is asked to delete that copy too.
    const unknownCopy = endOfCallReport({ callId, attempt: 2, providerCallId: 'late-copy-70', endedReason: 'assistant-ended-call' });
    expect((await signedVapi(unknownCopy)).status).toBe(200);
    await waitFor(
      async () => bench.vapi.requests.filter((r) => r.method === 'DELETE' && r.path === '/call/late-copy-70').length,
      (n) => n === 2,
      30_000,
    );
    expect(await bench.stack.db.callReports.findOne({ call_id: callId, attempt: 2 })).toBeNull();
  });

  it('keeps no answer sent while the candidate is erased: the answer is refused and its document removed', async () => {
    const { id, path, get } = await invitedInterview(bench.stack, bench.key, 'erase-during-answer', [
      { question: 'First?', type: 'text' },
      { question: 'Second?', type: 'text' },
    ]);
    const form = (to: string, body: string) =>
      fetch(bench.stack.url + path + to, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: bench.stack.url, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    expect((await form('/start', 'consent=given')).status).toBe(303);
    // The erasure lands between the page's read of the interview and its write of the answer: the write
    // that would copy it into the interview is refused, and the answer's own document goes.
    const interview = (await bench.stack.db.interviews.findOne({ _id: id }))!;
    const erased = await bench.stack.request('POST', '/api/public/v1/candidates/erase', {
      key: bench.key,
      body: { email: interview.candidate.email },
    });
    expect(erased.body.data.interviews).toBe(1);
    const before = await refused('interview');
    const saved = await bench.stack.stores.interviews.saveAnswer(interview, {
      index: 0,
      type: 'text',
      text: 'My secret word is marmalade',
      duration_seconds: null,
      answered_at: new Date(),
      timed_out: false,
    });
    expect(saved).toBe(false);
    expect((await get()).body.data).toMatchObject({ answers: [], erased_at: expect.any(String) });
    expect(JSON.stringify(await bench.stack.db.interviewAnswers.find({ interview_id: id }).toArray())).not.toContain('marmalade');
    expect(JSON.stringify(await bench.stack.db.interviews.findOne({ _id: id }))).not.toContain('marmalade');
    expect(await refused('interview')).toBe(before + 1);
  });

  it("leaves the person's earlier entries in force with no phone or email, under ids that name no address", async () => {
    const { key } = await bench.stack.newWorkspace('Ledgerco');
    const ws = (await bench.stack.request('GET', '/api/public/v1/workspace', { key })).body.data.workspace_id as string;
    const { id } = await invitedInterview(bench.stack, key, 'erase-ledger', [{ question: 'Why us?', type: 'text' }]);
    const email = 'grace.1@example.com';
    const phone = '+442079010001';
    // The person's own unsubscribe, by the link in the invitation's email.
    const link = new URL((await bench.stack.stores.providerLogs.email(id))!.headers!['List-Unsubscribe'].slice(1, -1)).pathname;
    const oneClick = await fetch(bench.stack.url + link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    // The workspace's own entry for the phone, and one filed before the link's ids were keyed.
    const filed = await bench.stack.request('POST', '/api/public/v1/suppressions', { key, body: { phone, channels: ['voice'] } });
    expect(filed.status).toBe(201);
    const plainId = keyedId('sup', ws, 'email_link', email);
    await bench.stack.stores.suppressions.add({ id: plainId, workspaceId: ws, email, channels: ['email'], source: 'email_link' });
    const list = async () => (await bench.stack.request('GET', '/api/public/v1/suppressions?limit=100', { key })).body.data;
    const before = await list();
    expect(before.map((e: { id: string }) => e.id)).not.toContain(undefined);
    expect(before.filter((e: { source: string }) => e.source === 'email_link').map((e: { id: string }) => e.id)).toContain(plainId);

    expect((await bench.stack.request('POST', '/api/public/v1/candidates/erase', { key, body: { email } })).status).toBe(200);
    const after = await list();
    expect(after.map((e: { id: string }) => e.id)).not.toContain(plainId);
    expect(after.map((e: { source: string }) => e.source).sort()).toEqual(['api', 'email_link', 'erasure']);
    for (const entry of after) expect(entry).toMatchObject({ phone: null, email: null });
    const stored = JSON.stringify(await bench.stack.db.suppressions.find({ workspace_id: ws }).toArray());
    expect(stored).not.toContain('grace.1');
    expect(stored).not.toContain('2079010001');
    // Still refused, on every channel the entries cover.
    const channels = await bench.stack.stores.suppressions.channelsFor(await bench.stack.stores.workspaces.get(ws), { email, phone });
    expect([...channels].sort()).toEqual(['email', 'voice', 'whatsapp']);
  });
});
