import { connectDatabase, type Database } from '../../infra/database';
import { interviewList } from '../../infra/lists/interviews';
import { FEED_SETTLE_MS } from '../../infra/lists/item-list';
import { projectCounts } from '../../infra/lists/project-counts';
import type { InterviewDoc } from '../../infra/documents/interviews';
import type { InterviewStatus } from '../../shared/interviews/schema';
import { interviewDoc, projectDoc } from '../helpers/interview-doc';
import { uniqueName } from '../helpers/stack';

/**
 * A project's counts, kept as a tally that each reading brings up to date from the change feed, against
 * the real database: they must always equal a count of the project's list, whatever happened in between.
 */
describe("a project's counts", () => {
  let db: Database;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('counts'));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  /** Waits out the feed's settling time, so the changes so far are the ones a reader takes. */
  const settle = () => new Promise((r) => setTimeout(r, FEED_SETTLE_MS + 50));
  const statusesOf = (counts: { by_status: Record<string, number> }) =>
    Object.fromEntries(Object.entries(counts.by_status).filter(([, n]) => n > 0));

  it('counts the list, then follows its changes, its taken-back items, and no other project', async () => {
    const project = projectDoc(uniqueName('prj'), 'ws_counts');
    const other = projectDoc(uniqueName('prj'), 'ws_counts');
    const list = interviewList(db);
    const make = async (p: typeof project, n: number): Promise<InterviewDoc[]> => {
      const docs = Array.from({ length: n }, () => interviewDoc(uniqueName('int'), p));
      await db.interviews.insertMany(docs);
      await list.created(docs);
      return docs;
    };
    const move = (i: InterviewDoc, status: InterviewStatus) =>
      list
        .update(i, { status }, (at) => ({ $set: { status, updated_at: at } }))
        .then(({ at }) => Object.assign(i, { status, updated_at: at }));

    const mine = await make(project, 12);
    await make(other, 5);
    await settle();
    expect(await projectCounts(db, project)).toMatchObject({ total: 12, by_status: { queued: 12, invited: 0, expired: 0 } });
    expect(await db.projectTallies.countDocuments({ _id: project._id })).toBe(1);

    // Changes after the tally was written: statuses move, an item is taken back, another project grows.
    await Promise.all(mine.slice(0, 6).map((i) => move(i, 'invited')));
    await move(mine[0], 'started');
    await move(mine[1], 'expired');
    await list.forget([mine[11]]);
    await make(project, 2);
    await make(other, 3);
    await settle();
    const followed = await projectCounts(db, project);
    expect(followed.total).toBe(13);
    expect(statusesOf(followed)).toEqual({ queued: 7, invited: 4, started: 1, expired: 1 });

    // The same as counting the list afresh.
    const afresh: Record<string, number> = {};
    for await (const e of list.entriesOfJob(project.workspace_id, project.ats_job_id))
      afresh[e.fields.status] = (afresh[e.fields.status] ?? 0) + 1;
    expect(statusesOf(followed)).toEqual(afresh);
    expect(statusesOf(await projectCounts(db, other))).toEqual({ queued: 8 });
    // Another process starts from the stored tally, which is exact as of its place, and catches up.
    const stored = (await db.projectTallies.findOne({ _id: project._id }))!;
    expect(Object.keys(JSON.parse(stored.items)).length).toBe(12);
    // A module of its own holds no tallies, as another process would.
    let fresh!: typeof projectCounts;
    await jest.isolateModulesAsync(async () => {
      ({ projectCounts: fresh } = await import('../../infra/lists/project-counts'));
    });
    expect(fresh).not.toBe(projectCounts);
    expect(await fresh(db, project)).toEqual(followed);
  });

  it('is exact when readers and writers race, whichever tally is written last', async () => {
    const project = projectDoc(uniqueName('prj'), 'ws_race');
    const list = interviewList(db);
    const docs = Array.from({ length: 30 }, () => interviewDoc(uniqueName('int'), project));
    await db.interviews.insertMany(docs);
    await list.created(docs);
    await settle();
    // Readers start while every item changes, each writing the tally it saw.
    const readers = Array.from({ length: 4 }, (_, n) => new Promise((r) => setTimeout(r, n * 40)).then(() => projectCounts(db, project)));
    await Promise.all([
      ...docs.map((i) => list.update(i, { status: 'invited' }, (at) => ({ $set: { status: 'invited', updated_at: at } }))),
      ...readers,
    ]);
    await settle();
    expect(statusesOf(await projectCounts(db, project))).toEqual({ invited: 30 });
  });
});
