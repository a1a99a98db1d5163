import { createHmac } from 'node:crypto';
import type { AnyBulkWriteOperation } from 'mongodb';
import type { Database } from './database';
import { bulkWriteEach, insertEach } from './duplicate-key';
import { sharedKey } from './shared-keys';
import type { PersonIndexDoc } from './records/person-index';
import { normalizeEmail } from '../shared/suppressions/schema';

/**
 * Where a person's calls and interviews are, for an erasure and an opt-out: one document per (workspace,
 * candidate id), (workspace, email) and (workspace, phone), named by an HMAC of it with a secret the
 * processes share, listing the records' ids. So finding a person is a few reads by exact `_id`, the one
 * lookup FerretDB answers from an index; a query on the records' fields reads every call there is (15 s at
 * 50,000 calls on FerretDB's SQLite backend, measured 2026-11-25). Filed by call/initiate and
 * interview/invite with the records, before their workflows start: an id whose record was never written is
 * read past.
 */

export interface Person {
  candidateId?: string | null;
  email?: string | null;
  phone?: string | null;
}

type Kind = 'calls' | 'interviews';

const KEY_ID = 'person-index-key';

export function personIndex(db: Database) {
  async function keysOf(workspaceId: string, p: Person): Promise<string[]> {
    const secret = await sharedKey(db, KEY_ID);
    const key = (kind: string, value: string) =>
      `pi_${createHmac('sha256', secret).update(`${workspaceId}\n${kind}\n${value}`).digest('hex').slice(0, 32)}`;
    return [
      ...(p.candidateId ? [key('candidate', p.candidateId)] : []),
      ...(p.email ? [key('email', normalizeEmail(p.email))] : []),
      ...(p.phone ? [key('phone', p.phone)] : []),
    ];
  }

  return {
    /**
     * Files new records under their people's keys: the keys seen for the first time in one unordered insert
     * (a bulk request's usual case), the others in one bulk of `$addToSet` by exact `_id`. False when any
     * write failed: the caller then treats those records as not written.
     */
    async file(workspaceId: string, kind: Kind, records: Array<Person & { id: string }>): Promise<boolean> {
      const byKey = new Map<string, string[]>();
      for (const r of records) for (const k of await keysOf(workspaceId, r)) byKey.set(k, [...(byKey.get(k) ?? []), r.id]);
      const docs: PersonIndexDoc[] = [...byKey].map(([_id, ids]) => ({
        _id,
        workspace_id: workspaceId,
        calls: kind === 'calls' ? ids : [],
        interviews: kind === 'interviews' ? ids : [],
      }));
      const inserted = await insertEach(db.personIndex, docs);
      if (inserted.includes('error')) return false;
      const ops: AnyBulkWriteOperation<PersonIndexDoc>[] = docs
        .filter((_, i) => inserted[i] === 'duplicate')
        .map((d) => ({ updateOne: { filter: { _id: d._id }, update: { $addToSet: { [kind]: { $each: d[kind] } } } } }));
      return !(await bulkWriteEach(db.personIndex, ops)).includes('error');
    },

    /** The ids of the records filed under any of the person's keys in the workspace. */
    async recordsOf(workspaceId: string, p: Person): Promise<{ calls: string[]; interviews: string[] }> {
      const docs = await Promise.all((await keysOf(workspaceId, p)).map((k) => db.personIndex.findOne({ _id: k })));
      const found = docs.filter((d): d is PersonIndexDoc => d?.workspace_id === workspaceId);
      return {
        calls: [...new Set(found.flatMap((d) => d.calls))],
        interviews: [...new Set(found.flatMap((d) => d.interviews))],
      };
    },
  };
}
