import type { Database } from '../database';
import type { InterviewDoc } from '../documents/interviews';
import { itemList, type ItemList } from './item-list';
import { indexOf } from './index-of';

/** The interviews of a workspace, newest first and as a change feed: every write of them goes through here. */
export function interviewList(db: Database): ItemList<InterviewDoc> {
  return itemList(indexOf(db), {
    name: 'interviews',
    collection: db.interviews,
    snapshots: db.listSnapshots,
    fields: (i) => ({ ats_job_id: i.ats_job_id, candidate_id: i.candidate_id, status: i.status }),
    // Queued invitations get their questions and their email within seconds; after that they keep their status.
    settled: (f) => f.status !== 'queued',
  });
}
