import type { Database } from '../infra/database';
import { isDuplicateKey } from '../infra/duplicate-key';
import { projectList } from '../infra/lists/projects';
import type { ProjectDoc } from '../infra/records/projects';

/**
 * The projects' one door: a project is created with its list entries and changed with its feed entry. A
 * project has no status and no webhook events, so it needs none of the calls' and interviews' checks.
 */
export interface ProjectStore {
  /** Inserts the project and lists it: 'written', or 'duplicate' when a project has its `_id` already. */
  create(project: ProjectDoc): Promise<'written' | 'duplicate'>;
  /** Lists the project again (a no-op when it is): a request that died between its insert and its list may have left it out. */
  relist(project: ProjectDoc): Promise<void>;
  /** Sets fields of the project, in the feed; the project as the write left it (null when it is gone). */
  change(project: Readonly<ProjectDoc>, set: Partial<Omit<ProjectDoc, '_id' | 'updated_at'>>): Promise<ProjectDoc | null>;
  page: ReturnType<typeof projectList>['page'];
}

export function projectStore(db: Database): ProjectStore {
  const list = projectList(db);
  return {
    async create(project) {
      try {
        await db.projects.insertOne(project);
      } catch (err) {
        if (isDuplicateKey(err)) return 'duplicate';
        throw err;
      }
      await list.created([project]);
      return 'written';
    },
    relist: (project) => list.created([project]),
    async change(project, set) {
      const { item } = await list.update(project as ProjectDoc, {}, (at) => ({ $set: { ...set, updated_at: at } }));
      return item;
    },
    page: (ws, q) => list.page(ws, q),
  };
}
