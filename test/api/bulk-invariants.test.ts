import { startStack, type Stack } from '../helpers/stack';
import { failingApis, postTo } from '../helpers/failing-apis';
import { waitFor } from '../helpers/wait';
import { callDoc } from '../helpers/call-doc';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { activeCallKey } from '../../stores/calls';
import { type CallDoc } from '../../infra/documents/calls';
import { newId } from '../../infra/ids';

/**
 * The invariant of the bulk operations, on the real API, worker, database and Temporal: an entry that says
 * `success` happens; an entry that says `failed` leaves nothing that blocks a retry; a retried identical
 * request never places a second call or sends a second invitation.
 */
const CALLS = '/api/public/v1/call/initiate';
const INVITE = '/api/public/v1/interview/invite';
const person = (i: number) => ({
  id: `p-${i}`,
  name: `Ada Byron ${'abcdefghij'[i % 10]}`,
  email: `ada.${i}@example.com`,
  phone: `+1415555${String(2000 + i)}`,
});
const callBody = (job: string, candidates: unknown[]) => ({
  ats_job_id: job,
  instructions: 'Ask {{candidate_first_name}} about availability.',
  candidates,
});
const post = postTo;

describe('bulk requests keep their invariant on the real stack', () => {
  let stack: Stack;
  let key: string;
  // APIs beside the stack whose workflow starts fail (broken), or whose person index cannot be reached (indexGone).
  let failing: Awaited<ReturnType<typeof failingApis>>;
  let broken: { api: { url: string } };
  let indexGone: { api: { url: string } };
  beforeAll(async () => {
    // Questions of new jobs spend from the workspace's AI budget (5 a minute by default); this suite's jobs share one
    // workspace, and in some orders its later tests would wait out the next minute for their questions. The
    // budget has its own suites (ai-rate-limit, abuse-limits).
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '0', AI_RATE_LIMIT: '1000' } });
    key = (await stack.newWorkspace('Initech')).key;
    failing = await failingApis(stack);
    broken = { api: failing.broken };
    indexGone = { api: failing.indexGone };
  });
  afterAll(async () => {
    await failing?.stop();
    await stack?.stop();
  });

  /** The retry through the working API: a call for each candidate, each completed, and no other in the project. */
  async function retriedOnce(projectId: string, job: string, candidates: unknown[]): Promise<void> {
    const retried = await post(stack.url, CALLS, key, callBody(job, candidates));
    expect(retried.body.data.calls.map((c: any) => c.status)).toEqual(candidates.map(() => 'success'));
    const ids = retried.body.data.calls.map((c: any) => c.id);
    const done = await waitFor(
      () => stack.db.calls.countDocuments({ _id: { $in: ids }, status: 'completed' }),
      (n) => n === candidates.length,
    );
    expect(done).toBe(candidates.length);
    expect(await stack.db.calls.countDocuments({ project_id: projectId })).toBe(candidates.length);
  }

  it('places exactly one call per candidate when 10 identical requests of 20 candidates arrive at once', async () => {
    await stack.request('POST', '/api/public/v1/campaigns', { key, body: { ats_job_id: 'job-storm', name: 'Storm' } });
    const candidates = Array.from({ length: 20 }, (_, i) => person(i));
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(stack.url, CALLS, key, callBody('job-storm', candidates))));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    for (let i = 0; i < 20; i++) {
      const entries = responses.map((r) => r.body.data.calls[i]);
      const won = entries.filter((e) => e.status === 'success');
      expect(won).toHaveLength(1);
      for (const e of entries.filter((x) => x.status === 'failed')) {
        expect(e.message).toMatch(/already has an active call|being scheduled by a concurrent request/);
      }
      const stored = await stack.db.calls.find({ project_id: responses[0].body.data.project_id, candidate_id: `p-${i}` }).toArray();
      expect(stored.map((c) => c._id)).toEqual([won[0].id]);
    }
    const ids = responses.flatMap((r) => r.body.data.calls.filter((c: any) => c.status === 'success').map((c: any) => c.id));
    const done = await waitFor(
      () => stack.db.calls.countDocuments({ _id: { $in: ids }, status: 'completed' }),
      (n) => n === 20,
      60_000,
    );
    expect(done).toBe(20);
  }, 90_000);

  it('leaves nothing behind when the workflow start fails after the database writes, and the retry calls once', async () => {
    await stack.request('POST', '/api/public/v1/campaigns', { key, body: { ats_job_id: 'job-start-fails', name: 'Start fails' } });
    const candidates = [person(30), person(31), person(32)];
    const first = await post(broken.api.url, CALLS, key, callBody('job-start-fails', candidates));
    expect(first.status).toBe(200);
    expect(first.body.success).toBe(false);
    for (const c of first.body.data.calls)
      expect(c).toMatchObject({ id: null, status: 'failed', message: 'Could not schedule the call; please retry' });
    const projectId = first.body.data.project_id;
    expect(await stack.db.calls.countDocuments({ project_id: projectId })).toBe(0);
    expect(await stack.db.claims.findOne({ _id: activeCallKey(projectId, 'p-30') })).toBeNull();

    await retriedOnce(projectId, 'job-start-fails', candidates);
  });

  it('answers 503 when the database goes away while filing the candidates, leaves nothing behind, and the retry calls once', async () => {
    const campaign = await stack.request('POST', '/api/public/v1/campaigns', { key, body: { ats_job_id: 'job-db-gone', name: 'Gone' } });
    const projectId = campaign.body.data.project_id;
    const first = await post(indexGone.api.url, CALLS, key, callBody('job-db-gone', [person(50), person(51)]));
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
    // Taken back after the answer: the calls it recorded, then their claims.
    const left = await waitFor(
      async () =>
        (await stack.db.calls.countDocuments({ project_id: projectId })) +
        (await stack.db.claims.countDocuments({ _id: { $in: [activeCallKey(projectId, 'p-50'), activeCallKey(projectId, 'p-51')] } })),
      (n) => n === 0,
    );
    expect(left).toBe(0);

    await retriedOnce(projectId, 'job-db-gone', [person(50), person(51)]);
    // The candidates the failed request had created were undone with it, so the retry filed them in the person
    // index: an erasure finds each call (one that found the candidates filed would have filed nothing).
    const erased = await stack.request('POST', '/api/public/v1/candidates/erase', { key, body: { phone: person(50).phone } });
    expect(erased.body.data).toMatchObject({ calls: 1 });
  });

  it('starts the call a request recorded before it stopped, when the request is retried, and places no second one', async () => {
    const campaign = await stack.request('POST', '/api/public/v1/campaigns', { key, body: { ats_job_id: 'job-crashed', name: 'Crashed' } });
    const projectId = campaign.body.data.project_id;
    // What a request leaves when its process dies between the database writes and the workflow start.
    const dry = await post(broken.api.url, CALLS, key, callBody('job-crashed', [person(40)]));
    expect(dry.body.data.calls[0].status).toBe('failed');
    const call = await recordedCall(stack, projectId, person(40));
    await stack.db.claims.insertOne({ _id: activeCallKey(projectId, 'p-40'), holder: call._id, expires_at: null, created_at: new Date() });
    await stack.db.calls.insertOne(call);

    const retried = await post(stack.url, CALLS, key, callBody('job-crashed', [person(40)]));
    expect(retried.body.data.calls[0]).toMatchObject({
      status: 'failed',
      message: expect.stringContaining(`already has an active call in this project (${call._id})`),
    });
    const stored = await waitFor(
      () => stack.db.calls.findOne({ _id: call._id }),
      (c) => c?.status === 'completed',
    );
    expect(stored?.status).toBe('completed');
    expect(await stack.db.calls.countDocuments({ project_id: projectId, candidate_id: 'p-40' })).toBe(1);
  });

  it('gives an email to one candidate id inside one bulk request and across concurrent requests', async () => {
    const inBulk = await post(
      stack.url,
      INVITE,
      key,
      inviteBody([inviteCandidate(1), inviteCandidate(2, { email: 'GRACE.1@EXAMPLE.com' }), inviteCandidate(3)], {
        ats_job_id: 'job-mail',
      }),
    );
    expect(inBulk.body.data.interviews.map((r: any) => r.status)).toEqual(['success', 'failed', 'success']);
    expect(inBulk.body.data.interviews[1].message).toBe(
      'Candidate cand-1 in this request has the same email; an email belongs to one candidate',
    );

    // Eight requests at once, each claiming one shared address for a different candidate id.
    const racing = await Promise.all(
      Array.from({ length: 8 }, (_, k) =>
        post(
          stack.url,
          INVITE,
          key,
          inviteBody([inviteCandidate(100 + k, { email: `Shared.Box@Example.com` })], { ats_job_id: 'job-mail' }),
        ),
      ),
    );
    const entries = racing.map((r) => r.body.data.interviews[0]);
    const winners = entries.filter((e) => e.status === 'success');
    expect(winners).toHaveLength(1);
    for (const e of entries.filter((x) => x.status === 'failed')) {
      expect(e.message).toBe(
        `A candidate with this email already exists in this project under a different id (${winners[0].candidate_id})`,
      );
    }
    const projectId = inBulk.body.data.project_id;
    const claimId = await stack.stores.candidates.emailClaimId(projectId, 'shared.box@example.com');
    expect(claimId).not.toContain('shared.box');
    expect(await stack.db.claims.findOne({ _id: claimId })).toMatchObject({
      holder: winners[0].candidate_id,
    });
    expect(await stack.db.interviews.countDocuments({ project_id: projectId, 'candidate.email': 'shared.box@example.com' })).toBe(1);
  });
});

/** The call record a request writes for one candidate, with no workflow started. */
async function recordedCall(stack: Stack, projectId: string, p: ReturnType<typeof person>): Promise<CallDoc> {
  const project = (await stack.db.projects.findOne({ _id: projectId }))!;
  return callDoc(newId('call'), {
    workspace_id: project.workspace_id,
    project_id: projectId,
    ats_job_id: project.ats_job_id,
    candidate_id: p.id,
    candidate: { name: p.name, email: p.email, phone: p.phone, custom_fields: {} },
    first_message: 'Hello',
    instructions: 'Ask about availability.',
  });
}
