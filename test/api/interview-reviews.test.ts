import { webhookBench } from '../helpers/webhook-receiver';
import { finishedInterview, invitedInterview } from '../helpers/invite';
import { waitFor } from '../helpers/wait';

/**
 * A person decides (docs/assessments.md): POST /interviews/{id}/review on the real stack records the decision
 * of a finished interview, keeps the ones it replaced, sends interview.reviewed, and refuses what it must.
 */
describe('a person’s review of an interview', () => {
  const bench = webhookBench();
  afterEach(() => bench.stack?.limits.release());
  const review = (id: string, key: string, body: unknown) =>
    bench.stack.request('POST', `/api/public/v1/interviews/${id}/review`, { key, body });

  it('records a decision, moves the one it replaces to the history, and sends interview.reviewed each time', async () => {
    const { key, id: workspaceId } = await bench.stack.newWorkspace('Reviewco');
    const [{ key_id }] = await bench.stack.stores.workspaces.listKeys(workspaceId);
    const path = bench.hooks.newPath();
    const hook = await bench.register(key, { url: `${bench.hooks.stub.url}${path}`, events: ['interview.reviewed'] });
    const { id, get } = await finishedInterview(bench.stack, key, 'review-twice', ['I designed a billing API in TypeScript.']);

    const first = await review(id, key, { decision: 'hold', reviewer: ' Sam Reviewer ', note: '  Listen again.  ' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      id,
      review: { decision: 'hold', reviewer: 'Sam Reviewer', note: 'Listen again.', reviewed_at: expect.any(String) },
      review_history: [],
      review_count: 1,
    });
    const second = await review(id, key, { decision: 'advance', reviewer: 'dana@acme.example' });
    expect(second.status).toBe(200);
    // Each review records the key that made it.
    expect(second.body.data.review).toEqual({
      decision: 'advance',
      reviewer: 'dana@acme.example',
      note: null,
      reviewed_at: expect.any(String),
      made_by: { via: 'api', key_id },
    });
    expect(second.body.data.review_history).toEqual([first.body.data.review]);
    expect((await get()).body.data).toMatchObject({ review: second.body.data.review, review_history: [first.body.data.review] });

    const events = await waitFor(
      async () => bench.hooks.verified(path, hook.secret),
      (e) => e.length === 2,
      30_000,
    );
    expect(events.map((e) => [e.type, e.data.review.decision])).toEqual([
      ['interview.reviewed', 'hold'],
      ['interview.reviewed', 'advance'],
    ]);
    // The event carries the new review and the count; the earlier ones stay with GET.
    expect(events[1].data).toMatchObject({ review: second.body.data.review, review_history: [], review_count: 2 });
  });

  it('keeps the last 20 earlier reviews and the count of all, and limits a workspace to REVIEWS_PER_MINUTE reviews (429 with Retry-After)', async () => {
    const { key } = await bench.stack.newWorkspace('Reviewmany');
    const { id, get } = await finishedInterview(bench.stack, key, 'review-many', ['I kept the billing API up for three years.']);
    // The 61 reviews land in one minute's window however slow the machine is: the limits' clock is held in it.
    bench.stack.limits.hold(60);
    for (let n = 1; n <= 60; n++) {
      const res = await review(id, key, { decision: n % 2 ? 'hold' : 'advance', reviewer: `reviewer ${n}` });
      expect(res.status).toBe(200);
    }
    const kept = (await get()).body.data;
    expect(kept.review).toMatchObject({ reviewer: 'reviewer 60' });
    expect(kept.review_history.map((r: { reviewer: string }) => r.reviewer)).toEqual(
      Array.from({ length: 20 }, (_, i) => `reviewer ${40 + i}`),
    );
    expect(kept.review_count).toBe(60);
    const refused = await review(id, key, { decision: 'reject', reviewer: 'one too many' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ success: false, message: expect.stringContaining('60 reviews per minute') });
    expect((await get()).body.data).toMatchObject({ review: kept.review, review_count: 60 });
  });

  it('refuses a review before the candidate finishes (409), from another workspace (404), and a bad body, changing nothing', async () => {
    const { key } = await bench.stack.newWorkspace('Earlyco');
    const other = await bench.stack.newWorkspace('Otherco');
    const { id, get } = await invitedInterview(bench.stack, key, 'review-early', [{ question: 'Why?', type: 'text' }]);
    const early = await review(id, key, { decision: 'reject', reviewer: 'Sam' });
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ success: false, message: expect.stringContaining('has not finished this interview (status invited)') });

    const done = await finishedInterview(bench.stack, key, 'review-refusals', ['An answer.']);
    expect((await review(done.id, other.key, { decision: 'advance', reviewer: 'Sam' })).status).toBe(404);
    expect((await review('int_000000000000000000000000', key, { decision: 'advance', reviewer: 'Sam' })).status).toBe(404);
    const bad = await review(done.id, key, { decision: 'maybe', reviewer: '   ', note: 'x'.repeat(2_001), score: 5 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['decision', 'note', 'reviewer', 'score']);
    const notJson = await bench.stack.request('POST', `/api/public/v1/interviews/${done.id}/review`, {
      key,
      raw: '{"decision":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect((await get()).body.data).toMatchObject({ review: null, review_history: [] });
    expect((await done.get()).body.data).toMatchObject({ review: null, review_history: [] });
  });

  it('loses no review sent at the same moment: each is in force, in the history, or refused with 409', async () => {
    const { key } = await bench.stack.newWorkspace('Manyco');
    const { id, get } = await finishedInterview(bench.stack, key, 'review-at-once', ['An answer.']);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => review(id, key, { decision: 'hold', reviewer: `Reviewer ${i}` })),
    );
    expect(answers.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const accepted = answers.filter((r) => r.status === 200).map((r) => r.body.data.review.reviewer);
    expect(accepted.length).toBeGreaterThan(0);
    const now = (await get()).body.data;
    const recorded = [...now.review_history, now.review].map((r: { reviewer: string }) => r.reviewer);
    expect(recorded.sort()).toEqual(accepted.sort());
  });

  it('keeps the decisions but not the notes after the candidate’s erasure, and takes no review after it', async () => {
    const { key } = await bench.stack.newWorkspace('Eraseco');
    const { id, get } = await finishedInterview(bench.stack, key, 'review-erased', ['An answer.']);
    expect((await review(id, key, { decision: 'reject', reviewer: 'Sam', note: 'Grace did not answer the question' })).status).toBe(200);
    const email = 'grace.1@example.com';
    const erased = await bench.stack.request('POST', '/api/public/v1/candidates/erase', { key, body: { email } });
    expect(erased.status).toBe(200);
    const after = (await get()).body.data;
    expect(after.review).toEqual({
      decision: 'reject',
      reviewer: 'Sam',
      note: null,
      reviewed_at: expect.any(String),
      made_by: { via: 'api', key_id: expect.stringMatching(/^key_/) },
    });
    const late = await review(id, key, { decision: 'advance', reviewer: 'Sam', note: 'Grace again' });
    expect(late.status).toBe(409);
    expect(late.body.message).toContain('erased');
    expect((await get()).body.data.review).toEqual(after.review);
  });
});
