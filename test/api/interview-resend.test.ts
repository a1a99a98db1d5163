import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { interviewDoc, projectDoc } from '../helpers/interview-doc';
import type { InterviewStatus } from '../../shared/interviews/schema';

const INVITE = '/api/public/v1/interview/invite';
const DAY = 86_400_000;

describe('interview deadlines and resend on the real stack', () => {
  let stack: Stack;
  let workspace: { id: string; key: string };
  beforeAll(async () => {
    stack = await startStack({ worker: true });
    workspace = await stack.newWorkspace('Initech');
  });
  afterAll(() => stack?.stop());

  const resend = (id: string, key = workspace.key) => stack.request('POST', `/api/public/v1/interviews/${id}/resend`, { key });
  const view = async (id: string) => (await stack.request('GET', `/api/public/v1/interviews/${id}`, { key: workspace.key })).body.data;
  const emails = (id: string) => stack.db.emailLog.find({ idempotency_key: { $regex: `^${id}` } }).toArray();

  /** One candidate invited for `days`, once the invitation is sent. */
  async function invited(jobId: string, days?: number): Promise<string> {
    const body = inviteBody([inviteCandidate(0)], { ats_job_id: jobId, ...(days ? { expires_in_days: days } : {}) });
    const res = await stack.request('POST', INVITE, { key: workspace.key, body });
    expect(res.status).toBe(200);
    const id = res.body.data.interviews[0].id as string;
    await waitFor(
      () => view(id),
      (v) => v.status === 'invited',
      30_000,
    );
    return id;
  }

  it('keeps a link open for expires_in_days, resends it once, and refuses a second resend within a minute', async () => {
    const id = await invited('job-resend', 3);
    const before = await view(id);
    expect(Date.parse(before.expires_at) - Date.parse(before.created_at)).toBe(3 * DAY);

    const res = await resend(id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: expect.objectContaining({ id, status: 'invited', expires_at: before.expires_at }) });
    const sent = await waitFor(
      () => emails(id),
      (mails) => mails.length === 2,
      30_000,
    );
    expect(sent.map((m) => m.subject).sort()).toEqual([
      'Your interview for Senior Data Engineer at Initech Inc',
      'Your interview link for Senior Data Engineer at Initech Inc',
    ]);
    expect(sent.find((m) => m.idempotency_key.includes('/resend/'))?.text).toContain(before.interview_url);
    await waitFor(
      () => view(id),
      (v) => v.resent_at !== null,
      30_000,
    );

    const again = await resend(id);
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('60');
    expect(again.body).toEqual({ success: false, message: 'This interview was resent less than a minute ago; try again in a minute' });
    expect(await emails(id)).toHaveLength(2);
  });

  it('opens an expired link again for 14 days from now, where the candidate left it', async () => {
    const id = await invited('job-expired');
    // The link ran out: what the workflow records at the deadline.
    await stack.db.interviews.updateOne({ _id: id }, { $set: { status: 'expired', expires_at: new Date(Date.now() - DAY) } });
    const asked = Date.now();
    const res = await resend(id);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('invited');
    expect(Date.parse(res.body.data.expires_at)).toBeGreaterThanOrEqual(asked + 14 * DAY);
    expect(Date.parse(res.body.data.expires_at)).toBeLessThan(Date.now() + 14 * DAY + 1_000);
    expect(
      await waitFor(
        () => emails(id),
        (mails) => mails.length === 2,
        30_000,
      ),
    ).toHaveLength(2);
  });

  it.each<[InterviewStatus, string]>([
    ['queued', 'The invitation is still being sent; resend it once its status is invited'],
    ['failed', 'The invitation failed, so there is no link to resend; invite the candidate again'],
    ['completed', 'The candidate has finished this interview; there is nothing to resend'],
  ])('refuses to resend a %s interview with a 409, and changes nothing', async (status, message) => {
    const project = projectDoc(`prj_${status}_${Date.now()}`, workspace.id);
    await stack.db.projects.insertOne(project);
    const interview = { ...interviewDoc(`int_${status}_${Date.now()}`, project), status };
    await stack.db.interviews.insertOne(interview);
    const res = await resend(interview._id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, message });
    expect(await stack.db.interviews.findOne({ _id: interview._id })).toEqual(interview);
    expect(await stack.db.claims.countDocuments({ _id: `resend/${interview._id}` })).toBe(0);
  });

  it("hides another workspace's interview, and an unknown one, behind a 404", async () => {
    const id = await invited('job-hidden');
    const other = await stack.newWorkspace('Other');
    expect((await resend(id, other.key)).status).toBe(404);
    expect((await resend('int_000000000000000000000000')).status).toBe(404);
    expect((await resend(id, 'sk_wrong')).status).toBe(401);
    expect(await emails(id)).toHaveLength(1);
  });
});
