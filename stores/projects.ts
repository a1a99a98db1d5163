import type { Database } from '../infra/database';
import { claim, release } from '../infra/claims';
import { isDuplicateKey } from '../infra/duplicate-key';
import { projectList } from '../infra/lists/projects';
import { projectCounts, type ProjectCounts } from '../infra/lists/project-counts';
import { documentId, type ProjectDoc } from '../infra/documents/projects';

/**
 * The projects' one door: a project is created with its list entries and changed with its feed entry. A
 * project has no status and no webhook events, so it needs none of the calls' and interviews' checks. Its
 * `_id` derives from (workspace, ats_job_id), so a job's project is one exact `_id` read, and concurrent
 * creations converge on one project.
 */
export interface ProjectStore {
  /** Inserts the project and lists it: 'written', or 'duplicate' when a project has its `_id` already. */
  create(project: ProjectDoc): Promise<'written' | 'duplicate'>;
  /** Lists the project again (a no-op when it is): a request that died between its insert and its list may have left it out. */
  relist(project: Readonly<ProjectDoc>): Promise<void>;
  /** Sets fields of the project, in the feed; the project as the write left it (null when it is gone). */
  change(project: Readonly<ProjectDoc>, set: Partial<Omit<ProjectDoc, '_id' | 'updated_at'>>): Promise<ProjectDoc | null>;
  /** A project, from a read shared with the callers that ask while another is in flight: not to be changed. */
  get(id: string): Promise<Readonly<ProjectDoc> | null>;
  /** The workspace's project, or null: another workspace's is as missing as an unknown one. */
  owned(workspaceId: string, id: string): Promise<Readonly<ProjectDoc> | null>;
  /** The workspace's project of an ats_job_id, of either kind, or null. */
  ofJob(workspaceId: string, atsJobId: string): Promise<Readonly<ProjectDoc> | null>;
  /**
   * Claims the generation of the project's questions for `holder` until `until` (a lease, taken over if its
   * worker dies): false when another invitation holds it. Generated at most once per project.
   */
  claimQuestions(projectId: string, holder: string, until: Date, now: Date): Promise<boolean>;
  /** Gives the claim back at once, so the next attempt need not wait out the lease. */
  releaseQuestions(projectId: string, holder: string): Promise<void>;
  /** The project's candidates by status (infra/lists/project-counts.ts). */
  counts(project: ProjectDoc): Promise<ProjectCounts>;
  page: ReturnType<typeof projectList>['page'];
}

const questionsKey = (projectId: string) => `questions/${projectId}`;

export function projectStore(db: Database): ProjectStore {
  const list = projectList(db);
  const get = (id: string) => db.shared.project(id);
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
    relist: (project) => list.created([project as ProjectDoc]),
    async change(project, set) {
      const { item } = await list.update(project as ProjectDoc, {}, (at) => ({ $set: { ...set, updated_at: at } }));
      return item;
    },
    get,
    async owned(workspaceId, id) {
      const project = await get(id);
      return project?.workspace_id === workspaceId ? project : null;
    },
    ofJob: (workspaceId, atsJobId) => get(documentId.project(workspaceId, atsJobId)),
    claimQuestions: async (projectId, holder, until, now) =>
      (await claim(db, questionsKey(projectId), holder, { now, expiresAt: until })) === holder,
    releaseQuestions: (projectId, holder) => release(db, questionsKey(projectId), holder),
    counts: (project) => projectCounts(db, project),
    page: (ws, q) => list.page(ws, q),
  };
}
