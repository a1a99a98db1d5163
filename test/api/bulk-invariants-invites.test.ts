import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { documentId } from '../../infra/documents/projects';
import type { FanOutResult } from '../../shared/workflow-starts';
import { failingApis, postTo as post } from '../helpers/failing-apis';

/**
 * The invariant of interview/invite, on the real API, worker, database and Temporal: an entry that says
 * `success` happens; an entry that says `failed`, or a request answered 503, leaves nothing that blocks a retry
 * and no interview an erasure could not find; a retried identical request never sends a second invitation.
 * (call/initiate's: bulk-invariants.test.ts.)
 */
const INVITE = '/api/public/v1/interview/invite';

describe('interview/invite keeps the bulk invariant on the real stack', () => {
  let stack: Stack;
  let key: string;
  // APIs beside the stack whose workflow starts fail (broken), or whose person index cannot be reached (indexGone).
  let failing: Awaited<ReturnType<typeof failingApis>>;
  let broken: { api: { url: string } };
  let indexGone: { api: { url: string } };
  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '0', AI_RATE_LIMIT: '1000' } });
    key = (await stack.newWorkspace('Initech Interviews')).key;
    failing = await failingApis(stack);
    broken = { api: failing.broken };
    indexGone = { api: failing.indexGone };
  });
  afterAll(async () => {
    await failing?.stop();
    await stack?.stop();
  });

  it('moves a re-invited candidate to its new email and frees the old one for another candidate', async () => {
    const job = { ats_job_id: 'job-move' };
    await post(stack.url, INVITE, key, inviteBody([inviteCandidate(500, { email: 'old.box@example.com' })], job));
    const moved = await post(stack.url, INVITE, key, inviteBody([inviteCandidate(500, { email: 'New.Box@example.com' })], job));
    expect(moved.body.data.interviews[0]).toMatchObject({
      status: 'success',
      message: 'Candidate was already invited to this interview; no new invitation was sent',
    });
    const after = await post(
      stack.url,
      INVITE,
      key,
      inviteBody([inviteCandidate(501, { email: 'old.box@example.com' }), inviteCandidate(502, { email: 'new.box@example.com' })], job),
    );
    expect(after.body.data.interviews.map((r: any) => [r.status, r.message])).toEqual([
      ['success', 'Interview invitation is being processed'],
      ['failed', 'A candidate with this email already exists in this project under a different id (cand-500)'],
    ]);
    const projectId = after.body.data.project_id;
    expect(await stack.db.candidates.findOne({ _id: documentId.candidate(projectId, 'cand-500') })).toMatchObject({
      email: 'new.box@example.com',
    });
  });

  it('sends one invitation per candidate when 10 identical invites arrive at once', async () => {
    const candidates = Array.from({ length: 20 }, (_, i) => inviteCandidate(200 + i));
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => post(stack.url, INVITE, key, inviteBody(candidates, { ats_job_id: 'job-invite-storm' }))),
    );
    const ids = new Set<string>();
    for (const r of responses) {
      for (const e of r.body.data.interviews) {
        expect(e.status).toBe('success');
        ids.add(e.id);
      }
    }
    expect(ids.size).toBe(20);
    const sent = await waitFor(
      () => stack.db.emailLog.countDocuments({ idempotency_key: { $in: [...ids] } }),
      (n) => n === 20,
    );
    expect(sent).toBe(20);
    const projectId = responses[0].body.data.project_id;
    expect(await stack.db.interviews.countDocuments({ project_id: projectId })).toBe(20);
    // Each request started one fan-out workflow; together they started each invitation once.
    const query = `WorkflowType = 'fanOutWorkflow' AND AtsJobId = 'job-invite-storm' AND ExecutionStatus = 'Completed'`;
    const batches = await waitFor(
      async () => {
        const found = [];
        for await (const w of stack.temporal.workflow.list({ query })) found.push(w.workflowId);
        return found;
      },
      (ids) => ids.length === 10,
    );
    const results: FanOutResult[] = await Promise.all(batches.map((id) => stack.temporal.workflow.getHandle(id).result()));
    expect(results.reduce((n, r) => n + r.started, 0)).toBe(20);
    expect(results.reduce((n, r) => n + r.existing, 0)).toBe(180);
  }, 90_000);

  it('takes back the invitation when its start fails, so the retry invites afresh and emails once', async () => {
    const body = inviteBody([inviteCandidate(300), inviteCandidate(301)], { ats_job_id: 'job-invite-fails' });
    const first = await post(broken.api.url, INVITE, key, body);
    expect(first.body.success).toBe(false);
    for (const e of first.body.data.interviews)
      expect(e).toMatchObject({ status: 'failed', message: 'Could not queue the invitation; please retry' });
    const projectId = first.body.data.project_id;
    expect(await stack.db.interviews.countDocuments({ project_id: projectId })).toBe(0);

    const retried = await post(stack.url, INVITE, key, body);
    expect(retried.body.data.interviews.map((e: any) => e.message)).toEqual([
      'Interview invitation is being processed',
      'Interview invitation is being processed',
    ]);
    const ids = retried.body.data.interviews.map((e: any) => e.id);
    const sent = await waitFor(
      () => stack.db.emailLog.countDocuments({ idempotency_key: { $in: ids } }),
      (n) => n === 2,
    );
    expect(sent).toBe(2);
    expect(ids).toEqual([documentId.interview(projectId, 'cand-300'), documentId.interview(projectId, 'cand-301')]);
  });

  it('answers 503 when the database goes away while filing the candidates, leaves no interview an erasure could not find, and the retry invites once', async () => {
    const body = inviteBody([inviteCandidate(310), inviteCandidate(311)], { ats_job_id: 'job-invite-db-gone' });
    const first = await post(indexGone.api.url, INVITE, key, body);
    expect(first.status).toBe(503);
    // In the jobs family's shape (the contract's for invite): no `code`.
    expect(first.body).toEqual({ success: false, message: expect.stringMatching(/temporarily unavailable/) });
    const project = await waitFor(
      () => stack.db.projects.findOne({ ats_job_id: 'job-invite-db-gone' }),
      (p) => p !== null,
    );
    // Taken back after the answer: the interviews it wrote, and the candidates it created.
    const left = await waitFor(
      async () =>
        (await stack.db.interviews.countDocuments({ project_id: project!._id })) +
        (await stack.db.candidates.countDocuments({ project_id: project!._id })),
      (n) => n === 0,
    );
    expect(left).toBe(0);

    const retried = await post(stack.url, INVITE, key, body);
    expect(retried.body.data.interviews.map((e: any) => e.message)).toEqual([
      'Interview invitation is being processed',
      'Interview invitation is being processed',
    ]);
    const ids = retried.body.data.interviews.map((e: any) => e.id);
    expect(
      await waitFor(
        () => stack.db.emailLog.countDocuments({ idempotency_key: { $in: ids } }),
        (n) => n === 2,
      ),
    ).toBe(2);
    // Each is where an erasure finds it.
    const erased = await stack.request('POST', '/api/public/v1/candidates/erase', { key, body: { email: inviteCandidate(310).email } });
    expect(erased.body.data).toMatchObject({ interviews: 1 });
  });
});
