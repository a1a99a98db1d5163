import type { Database } from '../database';
import type { ProjectDoc, ProjectTallyDoc } from '../records/projects';
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
/** Feed entries read without changing the tally past which it is written anyway, with its new place. */
const REWRITE_AFTER_CHANGES = 500;

/**
 * A project's candidates by status. Walking the project's whole list grew the dashboard's page with the
 * project (74 → 105 ms from 1,000 to 10,000 interviews), so the tally is kept: read as one document, brought
 * up to date from the feed's changes since it was written, and written back when they changed it. Every
 * version of the tally is exact as of its place in the feed, so writers that race only leave an older one,
 * which the next reader brings up to date again. The API's project view and the dashboard show it.
 */
export async function projectCounts(db: Database, project: ProjectDoc): Promise<ProjectCounts> {
  const campaign = project.kind === 'campaign';
  const list = campaign ? callList(db) : interviewList(db);
  // Changes younger than this may still be landing: a reader stops short of them (item-list.ts).
  const until = Date.now() - FEED_SETTLE_MS;
  /** The list as it is, and the feed from a little before the walk, so a change that landed during it is applied too. */
  const rebuild = async (): Promise<{ tally: Tally; from: Position }> => {
    const tally: Tally = {};
    for await (const e of list.entriesOfJob(project.workspace_id, project.ats_job_id)) apply(tally, e);
    return { tally, from: { at: until - FEED_PENDING_MS, id: '' } };
  };
  const stored = await db.projectTallies.findOne({ _id: project._id });
  let { tally, from } = stored ? { tally: JSON.parse(stored.items) as Tally, from: stored.next } : await rebuild();
  let changed = !stored;
  let scanned = 0;
  // Applying a change twice changes nothing: only a later version replaces an earlier one.
  for (let rebuilt = !stored; ;) {
    let again = false;
    for await (const e of list.changes(project.workspace_id, from, until)) {
      if (e.fields.ats_job_id === project.ats_job_id) changed = apply(tally, e) || changed;
      from = { at: e.at, id: e.id };
      // The workspace changed so much since the tally was written that the list is the shorter read.
      if (++scanned > REBUILD_AFTER_CHANGES && !rebuilt) {
        again = rebuilt = changed = true;
        break;
      }
    }
    if (!again) break;
    ({ tally, from } = await rebuild());
  }
  // Written back when it changed, or when the next reader would otherwise read many changes again.
  if (changed || scanned >= REWRITE_AFTER_CHANGES) {
    const doc: ProjectTallyDoc = { _id: project._id, items: JSON.stringify(tally), next: from, updated_at: new Date() };
    // Two first readers at once: one upsert loses, and the other's tally is as good.
    await db.projectTallies.replaceOne({ _id: project._id }, doc, { upsert: true }).catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err;
    });
  }
  const byStatus: Record<string, number> = Object.fromEntries((campaign ? CALL_STATUSES : INTERVIEW_STATUSES).map((s) => [s, 0]));
  let total = 0;
  for (const [status] of Object.values(tally)) {
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
