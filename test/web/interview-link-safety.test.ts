import type { Client } from '@temporalio/client';
import { startStack, type Stack } from '../helpers/stack';
import { invitedInterview } from '../helpers/invite';
import { waitFor } from '../helpers/wait';
import { ANSWER_GRACE_SECONDS } from '../../shared/interviews/session';
import { interviewWorkflowId } from '../../shared/workflow-starts';

/**
 * What a candidate's link does when something other than the candidate's own steps reach it: a mail scanner
 * fetching it (GET, HEAD), or a finish posted again and again. Against the real API, worker, database and
 * Temporal; the pages' clock is the test's.
 */
describe("the candidate's link", () => {
  let stack: Stack;
  let key: string;
  let skew = 0;
  const questions = [
    { question: 'Tell us about a pipeline you own.', type: 'text', time_limit_seconds: 60 },
    { question: 'How do you test a streaming job?', type: 'text', time_limit_seconds: 60 },
  ];
  beforeAll(async () => {
    stack = await startStack({ worker: true, now: () => new Date(Date.now() + skew) });
    ({ key } = await stack.newWorkspace('Linkco'));
  });
  afterAll(() => stack?.stop());

  async function invited(job: string) {
    const { id, path, get } = await invitedInterview(stack, key, job, questions);
    return { id, url: stack.url + path, get };
  }
  /** A form post as the page's own form sends it. */
  const post = (url: string, form = '') =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: stack.url, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
  /** The question clocks of one interview: which of its questions were served. */
  const served = async (id: string) =>
    (await Promise.all(questions.map((_, i) => stack.db.questionClocks.findOne({ _id: `${id}|${i}` })))).map((c) => c !== null);
  const runs = async (client: Client, id: string) => {
    const found = [];
    for await (const run of client.workflow.list({ query: `WorkflowId = '${interviewWorkflowId(id)}'` })) found.push(run.status.name);
    return found;
  };

  it('moves nothing on GET or HEAD: no question is served, and no timed-out answer is stored', async () => {
    const { id, url, get } = await invited('link-safe-get');
    // A scanner fetches the link before the candidate does.
    for (const method of ['GET', 'HEAD', 'GET']) expect((await fetch(url, { method })).status).toBe(200);
    expect(await served(id)).toEqual([false, false]);
    expect((await get()).body.data.status).toBe('invited');

    // The candidate starts: the first question is served by that POST.
    expect((await post(`${url}/start`, 'consent=given')).status).toBe(303);
    expect(await served(id)).toEqual([true, false]);
    // Its time runs out while the page is closed; scanners fetch the link again: nothing is recorded or served.
    skew += (60 + ANSWER_GRACE_SECONDS + 1) * 1_000;
    for (const method of ['GET', 'HEAD', 'GET']) expect((await fetch(url, { method })).status).toBe(200);
    expect(await served(id)).toEqual([true, false]);
    expect((await get()).body.data.answers).toEqual([]);

    // Only the candidate's POST goes on: the timed-out answer is recorded and the next question served.
    const on = await post(`${url}/next`);
    expect([on.status, on.headers.get('location')]).toEqual([303, `${new URL(url).pathname}?late=1`]);
    expect(await served(id)).toEqual([true, true]);
    expect((await get()).body.data.answers.map((a: { index: number; timed_out: boolean }) => [a.index, a.timed_out])).toEqual([[0, true]]);
  });

  it('starts nothing when a finished interview is finished again: one workflow run, one assessment', async () => {
    const { id, url, get } = await invited('link-safe-finish');
    expect((await post(`${url}/start`, 'consent=given')).status).toBe(303);
    for (const i of [0, 1]) {
      await fetch(url); // the page the candidate is redirected to
      expect((await post(`${url}/answers/${i}`, `answer=${encodeURIComponent(`Answer ${i}`)}`)).status).toBe(303);
    }
    expect((await post(`${url}/finish`)).status).toBe(303);
    const done = (await waitFor(get, (r) => r.body.data.assessment?.status === 'completed')).body.data;
    await waitFor(
      () => runs(stack.temporal, id),
      (r) => r.length === 1 && r[0] === 'COMPLETED',
    );

    for (let i = 0; i < 5; i++) {
      const again = await post(`${url}/finish`);
      expect([again.status, again.headers.get('location')]).toEqual([303, new URL(url).pathname]);
    }
    // The page answers as it would: the interview is completed.
    expect(await (await fetch(url)).text()).toContain('Interview completed');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await runs(stack.temporal, id)).toEqual(['COMPLETED']);
    expect((await get()).body.data.assessment).toEqual(done.assessment);
  });
});
