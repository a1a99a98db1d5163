import { startStack, type Stack } from '../helpers/stack';
import { invitedLive, openLive, refusedWith, caption } from '../helpers/live-client';
import { inviteCandidate } from '../helpers/invite';
import { waitFor } from '../helpers/wait';
import type { LiveMessage } from '../../shared/interviews/live';
import { conversationRecorder } from '../../operations/live-recording';

/**
 * A live conversation's rules at its edges (docs/live-interviews.md), on the real API, worker, database and
 * Temporal with the realtime simulator: a ticket opens one socket, only the public URL's scheme opens one on its
 * host, a control applies to the question under way only, and what closes the interview from outside (an
 * erasure, its deadline, a switch to writing in another tab) ends the conversation within two seconds.
 */
let stack: Stack;
let key: string;
const QUESTIONS = [
  { question: 'Tell us about a pipeline you built.', type: 'text', time_limit_seconds: 120 },
  { question: 'How do you test a data model?', type: 'text', time_limit_seconds: 120 },
];
const ended = (m: LiveMessage) => m.type === 'ended';

beforeAll(async () => {
  stack = await startStack({ worker: true });
  key = (await stack.newWorkspace('Live Rules')).key;
});
afterAll(() => stack?.stop());

/** A started live interview of a job of its own (candidate `n`), and its socket open on its first question. */
async function talking(job: string, n = 1) {
  const live = await invitedLive(stack, key, job, QUESTIONS, { follow_ups_per_question: 0 }, n);
  expect((await live.start()).status).toBe(303);
  const c = await openLive(stack, live.path, (await live.ticket()).body.ticket!);
  await c.next(caption('interviewer', 'Question 1 of 2'));
  return { live, c };
}

describe('a live socket', () => {
  it('opens once per ticket: the same ticket again is 403', async () => {
    const live = await invitedLive(stack, key, 'job-rules-ticket', QUESTIONS, {}, 2);
    await live.start();
    const { ticket } = (await live.ticket()).body;
    const c = await openLive(stack, live.path, ticket!);
    await c.next(caption('interviewer', 'Question 1 of 2'));
    c.close();
    await c.closed;
    expect(await refusedWith(stack, live.path, ticket!)).toBe(403);
  });

  it("opens on the public host only from a page of the public URL's scheme", async () => {
    const live = await invitedLive(stack, key, 'job-rules-origin', QUESTIONS, {}, 3);
    await live.start();
    const onPublicHost = { host: new URL(stack.config.PUBLIC_BASE_URL).host };
    // https://hiring.test is the public URL: an http: page of the same host is not ours.
    expect(await refusedWith(stack, live.path, (await live.ticket()).body.ticket!, 'http://hiring.test', onPublicHost)).toBe(403);
    const c = await openLive(stack, live.path, (await live.ticket()).body.ticket!, 'https://hiring.test', onPublicHost);
    await c.next(caption('interviewer', 'Question 1 of 2'));
    c.close();
  });
});

describe('a control', () => {
  it('"I\'m done" pressed twice closes the question under way only: the second is refused, and the next question is asked and left open', async () => {
    const { live, c } = await talking('job-rules-done-twice', 4);
    c.send({ type: 'done', question_index: 0 });
    c.send({ type: 'done', question_index: 0 });
    await c.next(caption('interviewer', 'Question 2 of 2'));
    await c.next((m) => m.type === 'error' && m.message.includes('on its way'));
    // A press without a question_index (an older page) is held to the question under way as well.
    c.send({ type: 'done' });
    c.send({ type: 'done' });
    await c.next(ended);
    const now = (await waitFor(live.get, (r) => r.body.data.answers.length === 2)).body.data;
    // The second question was heard before it closed: its turns hold the interviewer's asking.
    expect(now.answers[1].turns.map((t: { who: string }) => t.who)).toEqual(['interviewer']);
    expect(c.messages.filter((m) => m.type === 'error')).toHaveLength(1);
  });
});

describe('a conversation closed from outside', () => {
  it('ends within 2 s of an erasure of the candidate', async () => {
    const { c } = await talking('job-rules-erased', 5);
    const at = Date.now();
    const erased = await stack.request('POST', '/api/public/v1/candidates/erase', { key, body: { email: inviteCandidate(5).email } });
    expect(erased.status).toBe(200);
    expect(await c.next(ended, 0, 5_000)).toEqual({ type: 'ended', reason: 'closed' });
    expect(Date.now() - at).toBeLessThan(2_000);
  });

  it('ends within 2 s of its deadline passing', async () => {
    const { live, c } = await talking('job-rules-deadline', 6);
    const deadline = Date.now() + 500;
    await stack.db.interviews.updateOne({ _id: live.id }, { $set: { expires_at: new Date(deadline) } });
    expect(await c.next(ended, 0, 5_000)).toEqual({ type: 'ended', reason: 'closed' });
    expect(Date.now() - deadline).toBeLessThan(2_000);
  });

  it('ends within 2 s of a switch to writing in another tab', async () => {
    const { live, c } = await talking('job-rules-switch', 8);
    const at = Date.now();
    const switched = await fetch(`${stack.url}${live.path}/live/switch`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(switched.status).toBe(303);
    expect(await c.next(ended, 0, 5_000)).toEqual({ type: 'ended', reason: 'switched_to_text' });
    expect(Date.now() - at).toBeLessThan(2_000);
  });
});

describe("a conversation's recording", () => {
  it("holds at most its questions' time, and never more than the wall clock and a second, however much audio comes", async () => {
    let now = 0;
    const recorder = await conversationRecorder(stack.stores, `iv_cap_${Date.now()}`, { maxSeconds: 2, nowMs: () => now });
    const second = Buffer.alloc(48_000, 1);
    // Ten seconds of the candidate's audio sent in the first second, then five seconds pass.
    for (let i = 0; i < 10; i++) recorder.candidate(second);
    now = 1_000;
    expect((await recorder.close()).seconds).toBeLessThanOrEqual(2);

    const again = await conversationRecorder(stack.stores, `iv_wall_${Date.now()}`, { maxSeconds: 600, nowMs: () => now });
    const from = now;
    for (let i = 0; i < 10; i++) again.interviewer(second, 1);
    now = from + 1_500;
    // Ten seconds of a voice streamed ahead of a close 1.5 s in: the recording is 2.5 s at most.
    expect((await again.close()).seconds).toBeLessThanOrEqual(2.5);
  });

  it('takes out the rest of the reply the candidate cut into, and the reply queued after it, keeping what was heard', async () => {
    let now = 0;
    const recorder = await conversationRecorder(stack.stores, `iv_queued_${Date.now()}`, { maxSeconds: 60, nowMs: () => now });
    const loud = Buffer.alloc(48_000);
    for (let i = 0; i < 24_000; i++) loud.writeInt16LE(8_000, i * 2);
    // Two replies of a second each, streamed at once: the second is queued behind the first.
    recorder.interviewer(loud, 1);
    recorder.interviewerDone();
    recorder.interviewer(loud, 2);
    recorder.interviewerDone();
    now = 400;
    recorder.cutInterviewer(1, 500);
    now = 3_000;
    const closed = await recorder.close();
    const file = await stack.stores.recordings.download(
      { conversation_recording: { id: closed.id } } as Parameters<typeof stack.stores.recordings.download>[0],
      'conversation',
      undefined,
    );
    const chunks: Buffer[] = [];
    for await (const chunk of file!.body!) chunks.push(chunk as Buffer);
    const pcm = Buffer.concat(chunks).subarray(44);
    const at = (ms: number) => pcm.readInt16LE(Math.round(ms * 24) * 2);
    // The first reply's first 500 ms, whole; nothing of its rest or of the second reply.
    expect(pcm.length / 48).toBe(500);
    expect(at(0)).toBe(8_000);
    expect(at(499)).toBe(8_000);
  });
});
