import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { interviewWorkflowId } from '../../shared/workflow-starts';
import { AtsJobIdKey, InterviewStatusKey } from '../../workflows/search-attributes';

const INVITE = '/api/public/v1/interview/invite';

describe('interview/invite on the real stack', () => {
  let stack: Stack;
  let key: string;
  beforeAll(async () => {
    // Questions of new jobs spend from the workspace's AI budget (5 a minute by default); this suite's jobs share one
    // workspace, and in some orders its later tests would wait out the next minute for their questions. The
    // budget has its own suites (ai-rate-limit, abuse-limits).
    stack = await startStack({ worker: true, env: { AI_RATE_LIMIT: '1000' } });
    key = (await stack.newWorkspace('Globex')).key;
  });
  afterAll(() => stack?.stop());

  const invite = (body: unknown, k = key) => stack.request('POST', INVITE, { key: k, body });
  const sentCount = (projectId: string) => stack.db.interviews.countDocuments({ project_id: projectId, 'email.status': 'sent' });

  it('invites 200 candidates in request order and every one is emailed through the log provider', async () => {
    const candidates = Array.from({ length: 200 }, (_, i) => inviteCandidate(i));
    const res = await invite(inviteBody(candidates, { ats_job_id: 'job-200' }));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const { project_id, job_url, project_url, interviews } = res.body.data;
    expect(job_url).toBe(`https://hiring.test/jobs/${project_id}`);
    expect(project_url).toBe(`https://hiring.test/projects/${project_id}`);
    expect(interviews).toHaveLength(200);
    interviews.forEach((r: any, i: number) => {
      expect(r).toEqual({
        id: expect.stringMatching(/^int_/),
        candidate_id: `cand-${i}`,
        name: expect.stringMatching(/^Grace Hopper [A-Z]\. Xx*$/),
        email: `grace.${i}@example.com`,
        status: 'success',
        message: 'Interview invitation is being processed',
      });
    });
    expect(new Set(interviews.map((r: any) => r.id)).size).toBe(200);

    // Waited for as long as 200 invitations may take on a loaded machine (a whole suite's run took over a minute
    // once; the test's own limit is past the wait's, so the wait's own answer is what fails it).
    expect(
      await waitFor(
        () => sentCount(project_id),
        (n) => n === 200,
        120_000,
      ),
    ).toBe(200);
    expect(await stack.db.emailLog.countDocuments({ idempotency_key: { $in: interviews.map((r: any) => r.id) } })).toBe(200);

    // One generated question set, shared by every interview of the project.
    const project = await stack.db.projects.findOne({ _id: project_id });
    expect(project?.question_set).toMatchObject({ provider: 'offline' });
    const questionSets = await stack.db.interviews.distinct('questions.question', { project_id });
    expect(questionSets.sort()).toEqual(project!.question_set!.questions!.map((q) => q.question).sort());

    const view = await stack.request('GET', `/api/public/v1/interviews/${interviews[7].id}`, { key });
    expect(view.status).toBe(200);
    expect(view.body.data.interview_url.split('.').pop()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(view.body).toEqual({
      success: true,
      data: {
        id: interviews[7].id,
        project_id,
        candidate_id: 'cand-7',
        status: 'invited',
        interview_mode: 'async',
        recording_url: null,
        // The interview's id, then 256 random bits: the page finds it by the id and checks the secret.
        interview_url: `https://hiring.test/interview/${interviews[7].id}.${view.body.data.interview_url.split('.').pop()}`,
        questions_count: 8,
        questions: expect.any(Array),
        error: null,
        email: { status: 'sent', provider: 'log', message_id: expect.stringMatching(/^mail_/), sent_at: expect.any(String), error: null },
        consent: null,
        ai_assessment: 'allowed',
        ai_assessment_declined_at: null,
        started_at: null,
        completed_at: null,
        expires_at: expect.any(String),
        reminded_at: null,
        resent_at: null,
        answers: [],
        assessment: null,
        review: null,
        review_count: 0,
        review_history: [],
        // Its one event so far, interview.invited, heard by a webhook endpoint or not.
        sequence: 1,
        erased_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    // The link is open for the default 14 days from the invitation.
    expect(Date.parse(view.body.data.expires_at) - Date.parse(view.body.data.created_at)).toBe(14 * 86_400_000);
    const mail = await stack.db.emailLog.findOne({ idempotency_key: interviews[7].id });
    expect(mail?.to).toBe(`${interviews[7].name} <grace.7@example.com>`);
    expect(mail?.subject).toBe('Your interview for Senior Data Engineer at Globex Inc');
    expect(mail?.text).toContain(view.body.data.interview_url);
    expect(mail?.html).toContain(view.body.data.interview_url);

    // Operators find the invitation in the Temporal UI by the job and its progress.
    const described = await stack.temporal.workflow.getHandle(interviewWorkflowId(interviews[7].id)).describe();
    expect(described.typedSearchAttributes.get(AtsJobIdKey)).toBe('job-200');
    expect(described.typedSearchAttributes.get(InterviewStatusKey)).toBe('invited');
  }, 150_000);

  it('reuses the project of an ats_job_id, takes the latest job title, and never invites a candidate twice', async () => {
    const first = await invite(inviteBody([inviteCandidate(1)], { ats_job_id: 'job-reuse' }));
    const projectId = first.body.data.project_id;
    const firstId = first.body.data.interviews[0].id;
    await waitFor(
      () => sentCount(projectId),
      (n) => n === 1,
    );

    const second = await invite(
      inviteBody([inviteCandidate(1, { name: 'Grace Brewster Hopper' }), inviteCandidate(2)], {
        ats_job_id: 'job-reuse',
        job_title: 'Staff Data Engineer',
      }),
    );
    expect(second.status).toBe(200);
    expect(second.body.data.project_id).toBe(projectId);
    expect(second.body.data.interviews[0]).toEqual({
      id: firstId,
      candidate_id: 'cand-1',
      name: 'Grace Brewster Hopper',
      email: 'grace.1@example.com',
      status: 'success',
      message: 'Candidate was already invited to this interview; no new invitation was sent',
    });
    expect(second.body.data.interviews[1]).toMatchObject({
      candidate_id: 'cand-2',
      status: 'success',
      message: 'Interview invitation is being processed',
    });

    await waitFor(
      () => sentCount(projectId),
      (n) => n === 2,
    );
    expect(await stack.db.emailLog.countDocuments({ idempotency_key: firstId })).toBe(1);
    const project = await stack.db.projects.findOne({ _id: projectId });
    expect(project).toMatchObject({ kind: 'interview', name: 'Staff Data Engineer', job: { title: 'Staff Data Engineer' } });
    expect(await stack.db.projects.countDocuments({ ats_job_id: 'job-reuse' })).toBe(1);
    const candidate = await stack.db.candidates.findOne({ project_id: projectId, candidate_id: 'cand-1' });
    expect(candidate?.name).toBe('Grace Brewster Hopper');
  });

  it('fails a candidate whose email belongs to another candidate id, and invites the rest', async () => {
    const first = await invite(inviteBody([inviteCandidate(1)], { ats_job_id: 'job-conflict' }));
    const res = await invite(
      inviteBody([inviteCandidate(9, { email: 'GRACE.1@example.com' }), inviteCandidate(3)], { ats_job_id: 'job-conflict' }),
    );
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.project_id).toBe(first.body.data.project_id);
    expect(res.body.data.interviews[0]).toEqual({
      candidate_id: 'cand-9',
      name: expect.any(String),
      email: 'grace.1@example.com',
      status: 'failed',
      message: 'A candidate with this email already exists in this project under a different id (cand-1)',
    });
    expect(res.body.data.interviews[1]).toMatchObject({ candidate_id: 'cand-3', status: 'success' });
    expect(await stack.db.candidates.countDocuments({ project_id: first.body.data.project_id, candidate_id: 'cand-9' })).toBe(0);
  });

  it('answers 200 with success false when every candidate fails, in the same data shape', async () => {
    await invite(inviteBody([inviteCandidate(1), inviteCandidate(2)], { ats_job_id: 'job-all-fail' }));
    const res = await invite(
      inviteBody([inviteCandidate(11, { email: 'grace.1@example.com' }), inviteCandidate(12, { email: 'grace.2@example.com' })], {
        ats_job_id: 'job-all-fail',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      data: {
        project_id: expect.any(String),
        job_url: expect.any(String),
        project_url: expect.any(String),
        interviews: [
          expect.objectContaining({ candidate_id: 'cand-11', status: 'failed', message: expect.stringContaining('different id (cand-1)') }),
          expect.objectContaining({ candidate_id: 'cand-12', status: 'failed', message: expect.stringContaining('different id (cand-2)') }),
        ],
      },
    });
    expect(res.body.data.interviews.every((r: any) => !('id' in r))).toBe(true);
  });

  it('settles duplicates inside one request in request order', async () => {
    const res = await invite(
      inviteBody([inviteCandidate(1), inviteCandidate(1), inviteCandidate(2, { email: 'grace.1@example.com' })], {
        ats_job_id: 'job-dupes',
      }),
    );
    expect(res.body.data.interviews.map((r: any) => [r.status, r.message])).toEqual([
      ['success', 'Interview invitation is being processed'],
      ['failed', 'Duplicate candidate id in this request; the candidate is invited once'],
      ['failed', 'Candidate cand-1 in this request has the same email; an email belongs to one candidate'],
    ]);
  });

  it("uses the caller's questions, with the documented defaults, instead of generating", async () => {
    const questions = [
      { question: 'Why this team?' },
      { question: 'Sketch a pipeline for late events.', type: 'text' },
      { question: 'Describe a hard bug.', type: 'audio', time_limit_seconds: 90 },
    ];
    const res = await invite(inviteBody([inviteCandidate(1)], { ats_job_id: 'job-custom-q', questions }));
    const id = res.body.data.interviews[0].id;
    const view = await waitFor(
      () => stack.request('GET', `/api/public/v1/interviews/${id}`, { key }),
      (v) => v.body.data.status === 'invited',
    );
    expect(view.body.data.questions).toEqual([
      { question: 'Why this team?', type: 'video', time_limit_seconds: 120 },
      { question: 'Sketch a pipeline for late events.', type: 'text', time_limit_seconds: 300 },
      { question: 'Describe a hard bug.', type: 'audio', time_limit_seconds: 90 },
    ]);
    const project = await stack.db.projects.findOne({ _id: res.body.data.project_id });
    // No generation happened (FerretDB leaves a null set on insert out of the document; MongoDB stores null).
    expect(project?.question_set ?? null).toBeNull();
  });

  it('refuses an ats_job_id that belongs to a call campaign with a 409 and changes nothing', async () => {
    await stack.request('POST', '/api/public/v1/campaigns', { key, body: { ats_job_id: 'job-campaign', name: 'Calls' } });
    const res = await invite(inviteBody([inviteCandidate(1)], { ats_job_id: 'job-campaign' }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      message: 'ats_job_id job-campaign already belongs to a call campaign project, not an interview project',
    });
    const project = await stack.db.projects.findOne({ ats_job_id: 'job-campaign' });
    expect(project).toMatchObject({ kind: 'campaign', name: 'Calls', job: null });
  });

  it("hides another workspace's interview behind a 404", async () => {
    const res = await invite(inviteBody([inviteCandidate(1)], { ats_job_id: 'job-private' }));
    const other = (await stack.newWorkspace('Initech')).key;
    const view = await stack.request('GET', `/api/public/v1/interviews/${res.body.data.interviews[0].id}`, { key: other });
    expect(view.status).toBe(404);
    expect(view.body).toEqual({ success: false, message: 'Interview not found' });
  });

  it('answers 401 with the support address for a missing or wrong key, and records nothing', async () => {
    for (const k of [undefined, 'hk_wrong']) {
      const res = await stack.request('POST', INVITE, { key: k, body: inviteBody([inviteCandidate(1)], { ats_job_id: 'job-401' }) });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: 'Unauthorized. Please contact support at help@hiring.test.' });
    }
    expect(await stack.db.projects.countDocuments({ ats_job_id: 'job-401' })).toBe(0);
  });
});
