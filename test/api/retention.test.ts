import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { recordHistory } from '../helpers/histories';
import { retentionScheduleId } from '../../workflows/erasure';

const V1 = '/api/public/v1';
const DAY = 86_400_000;

/** The workspace's retention_days, swept daily by a Temporal schedule (docs/erasure.md), on the real stack. */
describe('retention on the real stack', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '0' } });
  });
  afterAll(() => stack?.stop());

  it('sets retention_days with PATCH /workspace, and refuses a count that is not 1 to 3650 days', async () => {
    const { key } = await stack.newWorkspace('Keeping');
    const patch = (body: unknown) => stack.request('PATCH', `${V1}/workspace`, { key, body });
    expect((await patch({ retention_days: 30 })).body.data.settings.retention_days).toBe(30);
    for (const bad of [0, 3651, 1.5, '30']) {
      const res = await patch({ retention_days: bad });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'retention_days', message: expect.stringMatching(/1 to 3650/) }]);
    }
    expect((await patch({ retention_days: null })).body.data.settings.retention_days).toBeNull();
  });

  it("erases, from the daily schedule's run, the candidates whose records all ended longer ago than retention_days", async () => {
    const schedule = await stack.temporal.schedule.getHandle(retentionScheduleId(stack.config.TEMPORAL_TASK_QUEUE)).describe();
    expect(schedule.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionSweepWorkflow' });
    expect(schedule.spec.intervals).toEqual([expect.objectContaining({ every: DAY })]);

    const { key } = await stack.newWorkspace('Retaining');
    await stack.request('PATCH', `${V1}/workspace`, { key, body: { retention_days: 7 } });
    await stack.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: 'keep', name: 'Keep', company_name: 'Acme' } });
    const person = (id: string, n: number) => ({ id, name: `Ada ${id}`, email: `${id}@example.com`, phone: `+1415555${3000 + n}` });
    const res = await stack.request('POST', `${V1}/call/initiate`, {
      key,
      body: { ats_job_id: 'keep', candidates: [person('old', 1), person('new', 2)], first_message: 'Hi', instructions: 'Ask.' },
    });
    const [oldId, newId] = res.body.data.calls.map((c: { id: string }) => c.id);
    for (const id of [oldId, newId]) {
      await waitFor(
        () => stack.request('GET', `${V1}/calls/${id}`, { key }),
        (r) => r.body.data.status === 'completed',
        20_000,
      );
    }
    // The older candidate's call ended eight days ago.
    await stack.db.calls.updateOne({ _id: oldId }, { $set: { updated_at: new Date(Date.now() - 8 * DAY) } });

    const started = Date.now();
    await stack.temporal.schedule.getHandle(retentionScheduleId(stack.config.TEMPORAL_TASK_QUEUE)).trigger();
    const erased = await waitFor(
      () => stack.db.calls.findOne({ _id: oldId }),
      (c) => !!c?.erased_at,
      30_000,
    );
    expect(erased).toMatchObject({ status: 'completed', transcript: null, candidate: { name: '', email: '', phone: '' } });
    expect((await stack.db.calls.findOne({ _id: newId }))?.erased_at).toBeUndefined();
    expect((await stack.request('GET', `${V1}/suppressions?source=erasure`, { key })).body.data).toHaveLength(1);

    // Its run is there for operators, with its counts.
    const runs = [];
    for await (const wf of stack.temporal.workflow.list({
      query: `WorkflowType = 'retentionSweepWorkflow' AND TaskQueue = '${stack.config.TEMPORAL_TASK_QUEUE}'`,
    })) {
      if (wf.startTime.getTime() >= started - 5_000) runs.push(wf);
    }
    expect(runs.length).toBeGreaterThanOrEqual(1);
    const result = await stack.temporal.workflow.getHandle(runs[0].workflowId, runs[0].runId).result();
    expect(result).toMatchObject({ candidates: 1, calls: 1, interviews: 0 });
    await recordHistory(stack.temporal, runs[0].workflowId, 'retention-sweep');
    // Its waits' own bounds add up to 70 s: a loaded machine fails one of them, with what it waited for, first.
  }, 90_000);
});
