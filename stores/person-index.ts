import type { AnyBulkWriteOperation } from 'mongodb';
import type { Database } from '../infra/database';
import { bulkWriteEach, insertEach } from '../infra/duplicate-key';
import { personKeys, type Person } from '../infra/people';
import { sharedKey } from '../infra/shared-keys';
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

const KEY_SECRET = 'person-index-key';

/** Rounds of writes and read-backs that filing a key may take (addToKeys). */
const ROUNDS = 10;

export function personIndex(db: Database) {
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

  async function keysOf(workspaceId: string, p: Person): Promise<string[]> {
    return personKeys(await sharedKey(db, KEY_SECRET), 'pi', workspaceId, p, ['candidate', 'email', 'phone']);
  }

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
      // Only new candidate documents and changed contacts come here (stores/candidates.ts), so a key there already
      // almost always lacks the candidate: no read first, and `$addToSet` keeps a repeat from listing it twice.
      return addToKeys(docs.filter((_, i) => inserted[i] === 'duplicate'));
    },

    /** The ids of the person's calls and interviews in the workspace: their keys, then their candidate documents. */
    async find(workspaceId: string, p: Person): Promise<{ calls: string[]; interviews: string[] }> {
      const keys = await Promise.all((await keysOf(workspaceId, p)).map((k) => db.personIndex.findOne({ _id: k })));
      const candidateIds = [...new Set(keys.flatMap((d) => (d?.workspace_id === workspaceId ? d.candidates : [])))];
      const candidates = await Promise.all(candidateIds.map((id) => db.candidates.findOne({ _id: id })));
      const mine = candidates.filter((r) => r?.workspace_id === workspaceId);
      return {
        calls: [...new Set(mine.flatMap((r) => r!.calls ?? []))],
        interviews: [...new Set(mine.flatMap((r) => r!.interviews ?? []))],
      };
    },
  };
}
