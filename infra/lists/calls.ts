import type { Database } from '../database';
import type { CallDoc } from '../documents/calls';
import { itemList, type ItemList } from './item-list';
import { FINAL_CALL_STATUSES } from '../../shared/calls/schema';
import { indexOf } from './index-of';

/** The calls of a workspace, newest first and as a change feed: every write of them goes through here. */
export function callList(db: Database): ItemList<CallDoc> {
  return itemList(indexOf(db), {
    name: 'calls',
    collection: db.calls,
    snapshots: db.listSnapshots,
    fields: (c) => ({ ats_job_id: c.ats_job_id, candidate_id: c.candidate_id, status: c.status }),
    // Ended: a call's status never changes again.
    settled: (f) => FINAL_CALL_STATUSES.includes(f.status),
  });
}
