import type { interviewWorkflow } from '../../workflows/interviews';
import { interviewSignaller } from '../../composition/interview-signals';
import { recordHistory } from '../helpers/histories';
import { DAY, followedInterviews, QUESTIONS } from '../helpers/followed-interviews';
import { RUN_LIMIT_MS } from '../../shared/workflow-runs';
import { runsOf } from '../helpers/workflow-runs';

describe('interview deadlines on the time-skipping server', () => {
  const bench = followedInterviews();
  const { newInterview, stored, emailsOf, follow, progressOf, closed } = bench;

  it("reminds a candidate who has not started at half the link's time, then expires the link", async () => {
    const interview = await newInterview('ws_reminding', 4);
    await follow(interview, async ({ handle }) => {
      await bench.env.sleep(2 * DAY - 60_000);
      expect((await emailsOf(interview)).map((m) => m.subject)).toEqual(['Your interview for Platform Engineer at Umbrella Corp']);
      await bench.env.sleep(2 * 60_000);
      await progressOf(handle, () => true);
      const reminder = (await emailsOf(interview)).find((m) => m.idempotency_key === `${interview._id}/reminder`);
      expect(reminder?.subject).toBe('Reminder: your interview for Platform Engineer at Umbrella Corp');
      expect((await stored(interview)).reminder).toEqual({ at: expect.any(Date), error: null });
      await bench.env.sleep(2 * DAY);
      expect(await closed(handle)).toMatchObject({ status: 'expired' });
    });
    expect(await stored(interview)).toMatchObject({ status: 'expired' });
    expect(await emailsOf(interview)).toHaveLength(2);
    await recordHistory(bench.env.client, interview.workflow_id, 'interview-reminded-then-expired');
  });

  it('sends no reminder when the workspace turned reminders off', async () => {
    const interview = await newInterview('ws_quiet', 2);
    await follow(interview, async ({ handle }) => {
      await bench.env.sleep(2 * DAY + 60_000);
      expect(await closed(handle)).toMatchObject({ status: 'expired' });
    });
    expect(await emailsOf(interview)).toHaveLength(1);
    expect(await stored(interview)).toMatchObject({ status: 'expired' });
  });

  it('opens an expired link again on a resend, in a new run, and emails it once', async () => {
    const interview = await newInterview('ws_quiet', 1);
    await follow(interview, async ({ handle, taskQueue }) => {
      await bench.env.sleep(DAY + 60_000);
      expect(await closed(handle)).toMatchObject({ status: 'expired' });
      // What POST /interviews/:id/resend records before it tells the workflow (operations/interview-resend.ts).
      const now = new Date(await bench.env.currentTimeMs());
      await bench.db.interviews.updateOne(
        { _id: interview._id },
        {
          $set: {
            status: 'invited',
            expires_at: new Date(now.getTime() + 14 * DAY),
            resend: { requested_at: now, sent_at: null, error: null },
          },
        },
      );
      await interviewSignaller(bench.env.client, taskQueue)(interview);
      const again = bench.env.client.workflow.getHandle<typeof interviewWorkflow>(interview.workflow_id);
      await progressOf(again, (p) => p.status === 'invited');
      for (let tries = 0; tries < 100 && !(await stored(interview)).resend?.sent_at; tries++) await new Promise((r) => setTimeout(r, 50));
      await recordHistory(bench.env.client, interview.workflow_id, 'interview-resent-after-expiry');
      await again.terminate('the test is over');
    });
    const subjects = (await emailsOf(interview)).map((m) => m.subject).sort();
    expect(subjects).toEqual([
      'Your interview for Platform Engineer at Umbrella Corp',
      'Your interview link for Platform Engineer at Umbrella Corp',
    ]);
    expect(await stored(interview)).toMatchObject({ status: 'invited', resend: { sent_at: expect.any(Date), error: null } });
  });

  it('follows a 30-day link in runs of at most a week: reminds once at day 15, expires at day 30', async () => {
    const interview = await newInterview('ws_reminding', 30);
    let firstRunId = '';
    await follow(interview, async ({ handle }) => {
      firstRunId = (await handle.describe()).runId;
      await bench.env.sleep(8 * DAY);
      // The second run follows the invitation, as it stood.
      const current = bench.env.client.workflow.getHandle<typeof interviewWorkflow>(interview.workflow_id);
      expect((await current.describe()).runId).not.toBe(firstRunId);
      expect(await progressOf(current, () => true)).toMatchObject({ status: 'invited', questionsCount: QUESTIONS.length });
      await bench.env.sleep(8 * DAY);
      expect((await emailsOf(interview)).map((m) => m.idempotency_key).sort()).toEqual([interview._id, `${interview._id}/reminder`]);
      await bench.env.sleep(15 * DAY);
      expect(await closed(current)).toMatchObject({ status: 'expired' });
    });
    expect(await stored(interview)).toMatchObject({ status: 'expired' });
    expect(await emailsOf(interview)).toHaveLength(2);
    // Each run lived a week at most, and each but the last continued as new.
    const runs = await runsOf(bench.env.client, interview.workflow_id, firstRunId);
    expect(runs.length).toBeGreaterThanOrEqual(5);
    expect(runs.every((r) => r.ended - r.started <= RUN_LIMIT_MS)).toBe(true);
    expect(runs.slice(0, -1).every((r) => r.continued)).toBe(true);
    await recordHistory(bench.env.client, interview.workflow_id, 'interview-run-continued-while-invited', firstRunId);
    await recordHistory(bench.env.client, interview.workflow_id, 'interview-run-resumed-then-expired');
  });
});
