import type { Database } from '../database';
import type { ProjectDoc } from '../documents/projects';
import { itemList, type ItemList } from './item-list';
import { indexOf } from './index-of';

/** The projects of a workspace, newest first and as a change feed: every write of them goes through here. */
export function projectList(db: Database): ItemList<ProjectDoc> {
  return itemList(indexOf(db), {
    name: 'projects',
    collection: db.projects,
    snapshots: db.listSnapshots,
    fields: (p) => ({ ats_job_id: p.ats_job_id, kind: p.kind }),
    // A project changes when its job is described again or its questions are generated: rarely.
    settled: () => true,
  });
}
