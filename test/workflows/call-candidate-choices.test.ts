import { Worker } from '@temporalio/worker';
import type { WorkflowHandle } from '@temporalio/client';
import { createActivities } from '../../activities';
import { callWorkflow, candidateChoiceUpdate, type CallWorkflowInput } from '../../workflows/calls';
import { callWorkflowInput } from '../../workflows/call-start';
import type { CandidateChoice } from '../../shared/calls/candidate-link';
import type { VoiceProvider } from '../../providers/voice/port';
import type { CallDoc } from '../../infra/documents/calls';
import { workflowBundle, WORKFLOWS_IN_THREAD } from '../helpers/stack';
import { callWorkflowBench, DAY, HOUR, progressUntil as until } from '../helpers/call-workflow-bench';
import { recordHistory } from '../helpers/histories';
import { waitFor } from '../helpers/wait';
import { callCandidateLinks } from '../../operations/call-candidate-links';
import type { CandidateOptOuts } from '../../operations/candidate-opt-outs';

/**
 * The candidate's choices on their call's link, as the call's workflow takes them through its Update
 * (workflows/call-state.ts): call now, a time of their own (three moves at most), not interested, and the
 * written form. On the time-skipping server with the real activities and database: a day's wait passes at
 * once, and only while the test waits for the result.
 */
describe('call workflow: the candidate chooses on their link (time-skipping server)', () => {
  const bench = callWorkflowBench();

  /** `uncached`: a worker without a cache, whose workflows' next tasks another worker can take once it is gone. */
  async function started(call: CallDoc, opts: { scheduleAt?: number; voice?: VoiceProvider; uncached?: boolean } = {}) {
    const worker = await Worker.create({
      ...WORKFLOWS_IN_THREAD,
      ...(opts.uncached ? { maxCachedWorkflows: 0 } : {}),
      connection: bench.env.nativeConnection,
      taskQueue: bench.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ ...bench.deps, voice: opts.voice ?? bench.simulator }),
    });
    const scheduleAt = opts.scheduleAt ?? (await bench.env.currentTimeMs()) + DAY;
    return { worker, scheduleAt, input: { ...callWorkflowInput(call, 30 * 60_000), scheduleAt } };
  }
  const begin = (call: CallDoc, input: CallWorkflowInput) =>
    bench.env.client.workflow.start(callWorkflow, { taskQueue: bench.taskQueue, workflowId: call.workflow_id, args: [input] });
  const choose = (handle: WorkflowHandle, choice: CandidateChoice) => handle.executeUpdate(candidateChoiceUpdate, { args: [choice] });
  const refusal = (why: string) => ({ name: 'WorkflowUpdateFailedError', cause: { message: why } });
  const stored = async (call: CallDoc) => (await bench.db.calls.findOne({ _id: call._id }))!;
  const dials = (call: CallDoc) => bench.simulator.dials.filter((d) => d.callId === call._id);

  it('rings within 30 s of "call me now" while the call waits a day for its time, and skips the pre-call message', async () => {
    const call = await bench.newCall({ outcomes: 'completed', preCall: true });
    const { worker, input } = await started(call);
    await worker.runUntil(async () => {
      const handle = await begin(call, input);
      await until(handle, (p) => p.status === 'scheduled' && p.nextAttemptAt !== null);
      const asked = await bench.env.currentTimeMs();
      const answer = await choose(handle, { kind: 'call_now' });
      expect(answer).toMatchObject({ taken: true, ringing_by: expect.any(Number) });
      expect((answer as { ringing_by: number }).ringing_by - asked).toBeLessThanOrEqual(31_000);
      expect((await handle.result()).status).toBe('completed');
      const done = await stored(call);
      expect(done.attempts[0].started_at.getTime() - asked).toBeLessThan(30_000);
      expect(done.messages).toEqual([]);
      // Once ended, the call takes no choice: refused before the history.
      await expect(choose(handle, { kind: 'decline' })).rejects.toBeDefined();
    });
    expect(dials(call)).toHaveLength(1);
    await recordHistory(bench.env.client, call.workflow_id, 'candidate-calls-now');
  });

  it('says when it can ring instead, outside the calling window, and dials nothing', async () => {
    const now = await bench.env.currentTimeMs();
    // One shift a day, two hours from now to three (UTC): the call waits for it.
    const minute = Math.floor((now % DAY) / 60_000);
    const shift = [{ start_minute: (minute + 120) % 1_440, end_minute: Math.min(1_440, ((minute + 120) % 1_440) + 60) }];
    const days = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
    const call = await bench.newCall({ outcomes: 'completed' });
    const hours = { enabled: true, ...Object.fromEntries(days.map((d) => [d, shift])) };
    await bench.db.calls.updateOne({ _id: call._id }, { $set: { call_settings: { working_hours: hours } } });
    const { worker, input } = await started({ ...call, call_settings: { working_hours: hours } as CallDoc['call_settings'] });
    await worker.runUntil(async () => {
      const handle = await begin(call, { ...input, scheduleAt: null });
      const waiting = await until(handle, (p) => p.status === 'scheduled' && p.nextAttemptAt !== null);
      const answer = await choose(handle, { kind: 'call_now' });
      expect(answer).toEqual({ taken: false, refused: 'outside_calling_window', earliest: waiting.nextAttemptAt });
      await handle.signal('cancelCall');
      expect((await handle.result()).status).toBe('cancelled');
    });
    expect(dials(call)).toHaveLength(0);
  });

  it('moves the dial to the times picked, three times at most, and dials at the last one, not before', async () => {
    const call = await bench.newCall({ outcomes: 'completed' });
    const { worker, input } = await started(call);
    await worker.runUntil(async () => {
      const handle = await begin(call, input);
      await until(handle, (p) => p.status === 'scheduled' && p.nextAttemptAt !== null);
      const now = await bench.env.currentTimeMs();
      await expect(choose(handle, { kind: 'move', at: now + 5 * 60_000 })).rejects.toMatchObject(refusal('bad_time'));
      await expect(choose(handle, { kind: 'move', at: now + 15 * DAY })).rejects.toMatchObject(refusal('bad_time'));
      const times = [now + 3 * HOUR, now + 2 * DAY, now + 5 * HOUR];
      for (const at of times) expect(await choose(handle, { kind: 'move', at })).toEqual({ taken: true, at });
      await expect(choose(handle, { kind: 'move', at: now + 6 * HOUR })).rejects.toMatchObject(refusal('too_many_moves'));
      const moved = await stored(call);
      expect(moved.next_attempt_at?.getTime()).toBe(times[2]);
      expect(moved.reschedules?.map((r) => [r.to.getTime(), r.by])).toEqual(times.map((t) => [t, 'candidate']));
      expect(moved.events?.filter((e) => e.startsWith('call.rescheduled'))).toHaveLength(3);
      expect((await handle.result()).status).toBe('completed');
    });
    const done = await stored(call);
    const dialled = done.attempts[0].started_at.getTime();
    expect(dialled).toBeGreaterThanOrEqual(done.reschedules![2].to.getTime());
    expect(dialled - done.reschedules![2].to.getTime()).toBeLessThan(60_000);
    expect(dials(call)).toHaveLength(1);
    await recordHistory(bench.env.client, call.workflow_id, 'candidate-moves-call');
  });

  it('ends the call as declined on "not interested", with one event and no dial after', async () => {
    const call = await bench.newCall({ outcomes: 'completed', fallback: true });
    const { worker, input } = await started(call);
    await worker.runUntil(async () => {
      const handle = await begin(call, input);
      await until(handle, (p) => p.status === 'scheduled' && p.nextAttemptAt !== null);
      expect(await choose(handle, { kind: 'decline' })).toEqual({ taken: true });
      expect((await handle.result()).status).toBe('declined');
    });
    const done = await stored(call);
    expect(done).toMatchObject({ status: 'declined', attempts: [], messages: [], next_attempt_at: null });
    expect(done.events?.filter((e) => e.startsWith('call.declined'))).toHaveLength(1);
    expect(done.events?.some((e) => e.startsWith('call.cancelled'))).toBe(false);
    expect(dials(call)).toHaveLength(0);
    expect(await bench.activeCall(call)).toBeNull();
    await recordHistory(bench.env.client, call.workflow_id, 'candidate-declines-call');
  });

  it('completes the call with the written answers, channel form, and dials no more', async () => {
    const call = await bench.newCall({ outcomes: 'completed' });
    await bench.db.callReports.insertOne({
      _id: `${call._id}/0`,
      call_id: call._id,
      attempt: 0,
      result: 'completed',
      provider_call_id: null,
      ended_reason: 'candidate-answered-form',
      recording_url: null,
      transcript: null,
      extracted_json: JSON.stringify({ years: '7' }),
      received_at: new Date(),
    });
    const { worker, input } = await started(call);
    await worker.runUntil(async () => {
      const handle = await begin(call, input);
      await until(handle, (p) => p.status === 'scheduled' && p.nextAttemptAt !== null);
      expect(await choose(handle, { kind: 'form' })).toEqual({ taken: true });
      expect((await handle.result()).status).toBe('completed');
    });
    expect(await stored(call)).toMatchObject({ status: 'completed', channel: 'form', extracted_variables: { years: 7 }, attempts: [] });
    expect(dials(call)).toHaveLength(0);
    await recordHistory(bench.env.client, call.workflow_id, 'candidate-answers-in-writing');
  });

  /**
   * The call waiting for its time with no worker up (the last one kept no cache, so the next task goes to the
   * queue), and its link's use cases on the real workflow port, whose page waits 200 ms for an answer.
   */
  async function waitingWithNoWorker(call: CallDoc) {
    const first = await started(call, { uncached: true });
    const handle = await first.worker.runUntil(async () => {
      const handle = await begin(call, first.input);
      await until(handle, (p) => p.status === 'scheduled' && p.nextAttemptAt !== null);
      return handle;
    });
    const port = bench.workflows();
    // Not on the form's way: only "stop contacting me" files an opt-out.
    const links = callCandidateLinks(
      { stores: bench.deps.stores, workflows: port, now: () => new Date(), answerWithinMs: 200 },
      {} as CandidateOptOuts,
    );
    /** The workflow's end, once a worker is up again. */
    const ended = async () => (await started(call)).worker.runUntil(async () => (await handle.result()).status);
    return { handle, links, ended };
  }
  const form = (call: CallDoc) => bench.db.callReports.findOne({ _id: `${call._id}/0` });

  it('keeps the written answers that the workflow takes after the page stopped waiting, and completes the call with them', async () => {
    const call = await bench.newCall({ outcomes: 'completed' });
    const { links, ended } = await waitingWithNoWorker(call);
    // The page gives up on the answer, and the Update waits at the server.
    expect(await links.answerInWriting(await stored(call), { years: '7' })).toEqual({ unanswered: true });
    expect(await form(call)).toMatchObject({ extracted_json: '{"years":"7"}' });
    expect(await ended()).toBe('completed');
    expect(await stored(call)).toMatchObject({ status: 'completed', channel: 'form', extracted_variables: { years: 7 } });
  });

  it('forgets the written answers that the workflow refuses after the page stopped waiting', async () => {
    const call = await bench.newCall({ outcomes: 'completed' });
    const { handle, links, ended } = await waitingWithNoWorker(call);
    // Cancelled while no worker is up: the form that follows is refused when a worker takes both.
    await handle.signal('cancelCall');
    expect(await links.answerInWriting(await stored(call), { years: '7' })).toEqual({ unanswered: true });
    expect(await ended()).toBe('cancelled');
    await waitFor(
      () => form(call),
      (r) => r === null,
    );
  });

  it('waits for the written answers once no retry is left (form_fallback when_exhausted), sending the fallback with the link first', async () => {
    const call = await bench.newCall({ outcomes: 'missed', fallback: true });
    const { worker, input } = await started(call, { scheduleAt: await bench.env.currentTimeMs() });
    await worker.runUntil(async () => {
      const handle = await begin(call, { ...input, formFallback: 'when_exhausted' });
      await until(handle, (p) => p.status === 'scheduled' && p.attempt === 1);
      const waiting = await waitForStored(call, (c) => c.form_until != null);
      expect(waiting.messages.map((m) => m.kind)).toEqual(['fallback']);
      expect(waiting.form_until!.getTime() - waiting.attempts[0].ended_at!.getTime()).toBeGreaterThanOrEqual(72 * HOUR - 60_000);
      // Only the form (or a decline) now: no call is left to ring.
      await expect(choose(handle, { kind: 'call_now' })).rejects.toMatchObject(refusal('form_only'));
      await bench.db.callReports.insertOne(formReport(call, { years: '3' }));
      expect(await choose(handle, { kind: 'form' })).toEqual({ taken: true });
      expect((await handle.result()).status).toBe('completed');
    });
    expect(await stored(call)).toMatchObject({ status: 'completed', channel: 'form', extracted_variables: { years: 3 } });
    expect(dials(call)).toHaveLength(1);
    await recordHistory(bench.env.client, call.workflow_id, 'candidate-answers-after-attempts');
  });

  it('fails the call once the written answers do not come within 72 hours, with one fallback', async () => {
    const call = await bench.newCall({ outcomes: 'missed', fallback: true });
    const { progress, stored: done } = await bench.run(call, { scheduleAt: null, formFallback: 'when_exhausted' });
    expect(progress.status).toBe('failed');
    expect(done.messages.map((m) => m.kind)).toEqual(['fallback']);
    // It waited the 72 hours shown, then failed: the failure came after them on the workflow's clock.
    expect(done.form_until!.getTime() - done.attempts[0].ended_at!.getTime()).toBeGreaterThanOrEqual(72 * HOUR - 60_000);
    expect((await bench.env.currentTimeMs()) - done.form_until!.getTime()).toBeGreaterThanOrEqual(0);
  });

  it('offers the form with the fallback after the first failure (after_first_failure), and retries as before', async () => {
    const call = await bench.newCall({ outcomes: 'missed,completed', fallback: true });
    const retry = {
      conditions: ['missed'],
      intervals: [{ type: 'delay', duration: 2, unit: 'hours' }],
    } as CallWorkflowInput['retryPolicy'];
    const { progress, stored: done } = await bench.run(call, { scheduleAt: null, retryPolicy: retry, formFallback: 'after_first_failure' });
    expect(progress.status).toBe('completed');
    expect(done.messages.map((m) => m.kind)).toEqual(['fallback']);
    expect(done.messages[0].sent_at!.getTime()).toBeLessThan(done.attempts[1].started_at.getTime());
    expect(done.channel).toBeUndefined();
  });

  it('emails the link once as the call is made (email_call_links), before the call rings', async () => {
    const call = await bench.newCall({ outcomes: 'completed' });
    const token = `${call._id}.${'x'.repeat(43)}`;
    await bench.db.calls.updateOne({ _id: call._id }, { $set: { candidate_token: token, email_link: true } });
    const { progress, stored: done } = await bench.run({ ...call, email_link: true }, { scheduleAt: null });
    expect(progress.status).toBe('completed');
    expect(done.link_email).toMatchObject({ status: 'sent', error: null });
    const mail = await bench.deps.stores.providerLogs.email(`${call._id}/link`);
    expect(mail?.text).toContain(`/call/${token}`);
    expect(done.link_email!.sent_at!.getTime()).toBeLessThanOrEqual(done.attempts[0].started_at.getTime());
    await recordHistory(bench.env.client, call.workflow_id, 'candidate-link-emailed');
  });

  it('dials once when the candidate asks for a call while the workflow is dialling on its own', async () => {
    const call = await bench.newCall();
    // A provider that places the call and reports later: the attempt stays under way until the test reports it.
    let placed = 0;
    const ringing: VoiceProvider = {
      name: 'ringing',
      dial: async ({ attempt }) => (placed++, { accepted: true, providerCallId: `prov-${attempt}` }),
    };
    const { worker, input } = await started(call, { scheduleAt: await bench.env.currentTimeMs(), voice: ringing });
    await worker.runUntil(async () => {
      const handle = await begin(call, input);
      await until(handle, (p) => p.status === 'in_progress');
      // It is ringing already: taken, with no second dial.
      expect(await choose(handle, { kind: 'call_now' })).toMatchObject({ taken: true, ringing_by: expect.any(Number) });
      // Anything else waits for the call under way to end.
      await expect(choose(handle, { kind: 'decline' })).rejects.toMatchObject(refusal('under_way'));
      await expect(choose(handle, { kind: 'form' })).rejects.toMatchObject(refusal('under_way'));
      await bench.deps.operations.reports.take({ callId: call._id, attempt: 1, result: 'completed', providerCallId: 'prov-1' });
      expect((await handle.result()).status).toBe('completed');
    });
    expect(placed).toBe(1);
    expect((await stored(call)).channel).toBeUndefined();
  });

  const formReport = (call: CallDoc, values: Record<string, string>) => ({
    _id: `${call._id}/0`,
    call_id: call._id,
    attempt: 0,
    result: 'completed' as const,
    provider_call_id: null,
    ended_reason: 'candidate-answered-form',
    recording_url: null,
    transcript: null,
    extracted_json: JSON.stringify(values),
    received_at: new Date(),
  });
  async function waitForStored(call: CallDoc, ready: (c: CallDoc) => boolean): Promise<CallDoc> {
    for (let i = 0; i < 400; i++) {
      const c = await stored(call);
      if (ready(c)) return c;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the call never reached the state waited for');
  }
});
