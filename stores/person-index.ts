import type { AnyBulkWriteOperation } from 'mongodb';
import type { Database } from '../infra/database';
import { bulkWriteEach, insertEach } from '../infra/duplicate-key';
import type { Person } from '../infra/people';
import { personHashKeys, versionedKeys, type PersonHashKeys, type VersionedKey } from './person-keys';
import type { PersonIndexDoc } from '../infra/documents/person-index';

/**
 * Where a person's calls and interviews are, for an erasure and a suppression: one document per (workspace,
 * candidate id), (workspace, email) and (workspace, phone), named by a keyed hash of it (infra/people.ts),
 * listing the candidate documents (one per project) that carry it; each candidate document lists its calls and
 * interviews (stores/candidates.ts). So finding a person is a few reads by exact `_id`, the one lookup FerretDB
 * answers from an index, where a query on the documents' fields reads every call there is (15 s at 50,000
 * calls on FerretDB's SQLite backend, measured 2026-11-25). Filed by call/initiate and interview/invite with
 * the candidates, before their workflows start. A known candidate of the project, the usual case of a repeated
 * request, costs no write here: its keys list its document already. Only the candidates' store uses it.
 */

/** Rounds of writes and read-backs that filing a key may take (addToKeys). */
const ROUNDS = 10;

export function personIndex(db: Database, keys: PersonHashKeys = personHashKeys(db, [])) {
  /**
   * Adds each key's candidates with `$addToSet`, then reads the keys back and adds again what is missing:
   * FerretDB rewrites a whole document per update, so two requests filing the same person at once can each
   * overwrite the other's addition (5 of 400 lost with 8 at once, measured 2026-11-25). A key many requests
   * file at once (one phone for many candidates) loses more, so each round after the first waits a random
   * 10 to 60 ms, and the rounds go on to ROUNDS. False when a candidate is still missing, or a write failed: the
   * request's entries then fail with a retry, which files them again.
   */
  async function addToKeys(keys: PersonIndexDoc[]): Promise<boolean> {
    let pending = keys;
    for (let round = 0; pending.length > 0 && round < ROUNDS; round++) {
      if (round > 0) await new Promise((r) => setTimeout(r, 10 + Math.random() * 50));
      const ops: AnyBulkWriteOperation<PersonIndexDoc>[] = pending.map((d) => ({
        updateOne: { filter: { _id: d._id }, update: { $addToSet: { candidates: { $each: d.candidates } } } },
      }));
      if ((await bulkWriteEach(db.personIndex, ops)).includes('error')) return false;
      const after = await Promise.all(pending.map((d) => db.personIndex.findOne({ _id: d._id })));
      pending = pending.filter((d, i) => !d.candidates.every((id) => after[i]?.candidates.includes(id)));
    }
    return pending.length === 0;
  }

  const keysUnder = (key: VersionedKey, workspaceId: string, p: Person) =>
    versionedKeys(key, 'pi', workspaceId, p, ['candidate', 'email', 'phone']);
  /** The person's keys under the current secret: where they are filed. */
  const keysOf = async (workspaceId: string, p: Person) => keysUnder(await keys.current('person-index'), workspaceId, p);
  /** The person's keys under every secret they may have been filed with (stores/person-keys.ts). */
  const everyKeyOf = async (workspaceId: string, p: Person) =>
    (await keys.all('person-index')).flatMap((key) => keysUnder(key, workspaceId, p));

  return {
    /**
     * Files candidate documents under their people's keys: keys seen for the first time in one unordered insert
     * (a bulk request's usual case); keys there already (the same person in another project) get an
     * `$addToSet` by exact `_id`, one command each (infra/duplicate-key.ts). False when any write failed: the caller then treats those
     * candidates as not written.
     */
    async file(workspaceId: string, people: Array<Person & { candidateDocId: string }>): Promise<boolean> {
      const byKey = new Map<string, Set<string>>();
      for (const p of people) {
        for (const k of await keysOf(workspaceId, p)) byKey.set(k, (byKey.get(k) ?? new Set()).add(p.candidateDocId));
      }
      const docs: PersonIndexDoc[] = [...byKey].map(([_id, ids]) => ({ _id, workspace_id: workspaceId, candidates: [...ids] }));
      const inserted = await insertEach(db.personIndex, docs);
      if (inserted.includes('error')) return false;
      // Only new candidate documents and changed addresses come here (stores/candidates.ts), so a key there already
      // almost always lacks the candidate: no read first, and `$addToSet` keeps a repeat from listing it twice.
      return addToKeys(docs.filter((_, i) => inserted[i] === 'duplicate'));
    },

    /** The ids of the person's calls and interviews in the workspace: their keys, then their candidate documents. */
    async find(workspaceId: string, p: Person): Promise<{ calls: string[]; interviews: string[] }> {
      const found = await Promise.all((await everyKeyOf(workspaceId, p)).map((k) => db.personIndex.findOne({ _id: k })));
      const candidateIds = [...new Set(found.flatMap((d) => (d?.workspace_id === workspaceId ? d.candidates : [])))];
      const candidates = await Promise.all(candidateIds.map((id) => db.candidates.findOne({ _id: id })));
      const mine = candidates.filter((r) => r?.workspace_id === workspaceId);
      return {
        calls: [...new Set(mine.flatMap((r) => r!.calls ?? []))],
        interviews: [...new Set(mine.flatMap((r) => r!.interviews ?? []))],
      };
    },

    /**
     * Removes the person's keys made with an older secret (the person is filed under the current one first):
     * `admin people:rekey`. The number removed.
     */
    async forgetOlderKeys(workspaceId: string, p: Person): Promise<number> {
      const [current, ...older] = await keys.all('person-index');
      if (!current) return 0;
      const ids = older.flatMap((key) => keysUnder(key, workspaceId, p));
      const gone = await Promise.all(ids.map((_id) => db.personIndex.deleteOne({ _id })));
      return gone.reduce((n, r) => n + r.deletedCount, 0);
    },
  };
}
