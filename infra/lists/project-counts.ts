import type { Database } from '../database';
import type { ProjectDoc, ProjectTallyDoc } from '../documents/projects';
import { CALL_STATUSES } from '../../shared/calls/schema';
import { INTERVIEW_STATUSES } from '../../shared/interviews/schema';
import { callList } from './calls';
import { interviewList } from './interviews';
import { FEED_PENDING_MS, FEED_SETTLE_MS, type Change } from './item-list';
import { isDuplicateKey } from '../duplicate-key';

export interface ProjectCounts {
  total: number;
  /** Every status of the project's kind, 0 where none is. */
  by_status: Record<string, number>;
}

type Tally = Record<string, [status: string, version: number]>;
type Position = ProjectTallyDoc['next'];
/** Feed entries (of the whole workspace) past which a tally is rebuilt from the project's list instead. */
const REBUILD_AFTER_CHANGES = 20_000;
/** Feed entries a held tally has read since it was last stored, past which it is stored again. */
const STORE_AFTER_CHANGES = 1_000;
/**
 * The most tallies a process holds (the projects shown most recently). One takes about 150 bytes of memory a
 * candidate: 1.5 MB for a project of 10,000.
 */
const HELD_PROJECTS = 50;

/** A tally as a process holds it: exact as of `from`, and `behind` feed entries past the one stored. */
interface Held {
  tally: Tally;
  from: Position;
  behind: number;
}
const HELD = new Map<string, Held>();

/**
 * A project's candidates by status. Walking the project's whole list grew the dashboard's page with the
 * project (74 → 105 ms from 1,000 to 10,000 interviews), and so did reading it back as one document (18 ms for
 * 10,000), so each process holds the tallies of the projects it shows, brings one up to date from the feed's
 * changes since its place whenever it is asked, and stores it now and then: a process that has none starts
 * from the stored one, or from the list. Every tally is exact as of its place in the feed, so processes
 * whose stored tallies race only leave an older one, which the next reader brings up to date. The API's
 * project view and the dashboard show it.
 */
export async function projectCounts(db: Database, project: ProjectDoc): Promise<ProjectCounts> {
  const campaign = project.kind === 'campaign';
  const list = campaign ? callList(db) : interviewList(db);
  // Changes younger than this may still be landing: a reader stops short of them (item-list.ts).
  const until = Date.now() - FEED_SETTLE_MS;
  /** The list as it is, and the feed from a little before the walk, so a change that landed during it is applied too. */
  const rebuild = async (): Promise<Held> => {
    const tally: Tally = {};
    for await (const e of list.entriesOfJob(project.workspace_id, project.ats_job_id)) apply(tally, e);
    return { tally, from: { at: until - FEED_PENDING_MS, id: '' }, behind: Infinity };
  };
  const key = `${db.db.databaseName}/${project._id}`;
  let held = HELD.get(key);
  if (!held) {
    const stored = await db.projectTallies.findOne({ _id: project._id });
    held = stored ? { tally: JSON.parse(stored.items) as Tally, from: stored.next, behind: 0 } : await rebuild();
  }
  HELD.delete(key);
  HELD.set(key, held);
  if (HELD.size > HELD_PROJECTS) HELD.delete(HELD.keys().next().value!);

  // Applying a change twice changes nothing: only a later version replaces an earlier one. Readers of one
  // project at once walk the same changes; each moves the place only forward.
  let from = held.from;
  let scanned = 0;
  for await (const e of list.changes(project.workspace_id, from, until)) {
    if (e.fields.ats_job_id === project.ats_job_id) apply(held.tally, e);
    from = { at: e.at, id: e.id };
    // The workspace changed so much since this tally's place that the list is the shorter read.
    if (++scanned > REBUILD_AFTER_CHANGES) {
      held = await rebuild();
      HELD.set(key, held);
      from = held.from;
      for await (const c of list.changes(project.workspace_id, from, until)) {
        if (c.fields.ats_job_id === project.ats_job_id) apply(held.tally, c);
        from = { at: c.at, id: c.id };
      }
      break;
    }
  }
  if (from.at > held.from.at || (from.at === held.from.at && from.id > held.from.id)) held.from = from;
  held.behind += scanned;
  // Stored now and then, so that a process starting afresh has little of the feed to catch up on.
  if (held.behind >= STORE_AFTER_CHANGES) {
    held.behind = 0;
    const doc: ProjectTallyDoc = { _id: project._id, items: JSON.stringify(held.tally), next: held.from, updated_at: new Date() };
    // Two first readers at once: one upsert loses, and the other's tally is as good.
    await db.projectTallies.replaceOne({ _id: project._id }, doc, { upsert: true }).catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err;
    });
  }
  const byStatus: Record<string, number> = Object.fromEntries((campaign ? CALL_STATUSES : INTERVIEW_STATUSES).map((s) => [s, 0]));
  let total = 0;
  for (const [status] of Object.values(held.tally)) {
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    total++;
  }
  return { total, by_status: byStatus };
}

/** Takes a change into the tally if it is the item's latest; true when it changed the tally. */
function apply(tally: Tally, e: Change): boolean {
  const current = tally[e.id];
  if (current && current[1] > e.version) return false;
  if (e.gone) {
    if (!current) return false;
    delete tally[e.id];
    return true;
  }
  if (current && current[0] === e.fields.status && current[1] === e.version) return false;
  tally[e.id] = [e.fields.status, e.version];
  return true;
}
