import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import { buildActivityDeps } from '../../composition/activity-deps';
import type { ActivityDeps } from '../../activities/deps';
import type { SweepStep } from '../../activities/erasure';
import { testConfig, uniqueName } from '../helpers/stack';
import { callDoc } from '../helpers/call-doc';

const DAY = 86_400_000;

/**
 * The retention sweep's steps on the real database (docs/erasure.md): a hundred and one candidates kept whole
 * ahead of an expired one, in candidate id order, do not hide it, and the steps end.
 */
describe('retention sweep steps', () => {
  let db: Database;
  let deps: ActivityDeps;
  let acts: ReturnType<typeof createActivities>;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('sweep'));
    const logger = createLogger('silent');
    // No Temporal: every call here has ended, so an erasure cancels nothing.
    deps = buildActivityDeps(testConfig(), { db, client: null as never, logger }, { logger, report: async () => 'recorded' } as never);
    acts = createActivities(deps);
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  /** A completed call of the candidate in the project, last changed `daysAgo` days ago, filed in the person index. */
  async function endedCall(ws: string, project: string, candidateId: string, daysAgo: number): Promise<string> {
    const id = uniqueName('call');
    const at = new Date(Date.now() - daysAgo * DAY);
    const person = { id: candidateId, name: `Ada ${candidateId}`, email: `${candidateId}@sweep.example`, phone: '+14155550150' };
    await deps.operations.fileCandidates(ws, project, [person], { kind: 'calls', ids: [id] });
    const call = callDoc(id, {
      workspace_id: ws,
      project_id: project,
      candidate_id: candidateId,
      candidate: { name: person.name, email: person.email, phone: person.phone, custom_fields: {} },
      status: 'completed',
      created_at: at,
      updated_at: at,
    });
    await deps.stores.calls.create([call]);
    return id;
  }

  it('goes on past the candidates it keeps, and erases the expired one behind them', async () => {
    const ws = uniqueName('ws');
    // 101 candidates with an old call and a recent one (kept whole), ids before the expired one's.
    const kept = Array.from({ length: 101 }, (_, i) => `a-${String(i).padStart(3, '0')}`);
    for (const c of kept) {
      await endedCall(ws, 'prj_old', c, 10);
      await endedCall(ws, 'prj_new', c, 1);
    }
    const expired = await endedCall(ws, 'prj_old', 'z-expired', 10);
    const env = new MockActivityEnvironment();
    const steps: SweepStep[] = [];
    for (let after: string | null = null; steps.length < 5;) {
      const step: SweepStep = await env.run(acts.sweepRetention, ws, 7, Date.now(), after);
      steps.push(step);
      if (!step.more) break;
      after = step.next;
    }
    expect(steps.map((s) => [s.candidates, s.more, s.next])).toEqual([
      [0, true, 'a-099'],
      [1, false, null],
    ]);
    expect((await db.calls.findOne({ _id: expired }))!.erased_at).toEqual(expect.any(Date));
    expect(await db.calls.countDocuments({ workspace_id: ws, erased_at: { $exists: true } })).toBe(1);
  }, 120_000);
});
