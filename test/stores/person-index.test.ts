import { MongoClient } from 'mongodb';
import { connectDatabase, type Database } from '../../infra/database';
import { ServiceUnavailableError } from '../../shared/errors';
import { personIndex } from '../../stores/person-index';
import { personHashKeys } from '../../stores/person-keys';
import { uniqueName } from '../helpers/stack';

/**
 * The person index on the real database: requests filing the same person at once (one ATS sending the same
 * people for several jobs in parallel) must each find its record under the person's keys afterwards, and
 * must all be answered.
 */
const OLDER = { version: 1, secret: Buffer.from('an older secret of this test') };

describe('person index', () => {
  let db: Database;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('people'));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  it('keeps every record of a person filed by many requests at once', async () => {
    const index = personIndex(db);
    const workspace = uniqueName('ws');
    const people = Array.from({ length: 16 }, (_, i) => ({
      candidateId: `c${i}`,
      email: `p${i}@example.com`,
      phone: `+1415555${1000 + i}`,
    }));
    // The people are known first, so every later filing adds to their keys.
    expect(
      await index.file(
        workspace,
        people.map((p) => ({ ...p, candidateDocId: `rec-0-${p.candidateId}` })),
      ),
    ).toBe(true);
    const requests = Array.from({ length: 16 }, (_, r) =>
      index.file(
        workspace,
        people.map((p) => ({ ...p, candidateDocId: `rec-${r + 1}-${p.candidateId}` })),
      ),
    );
    expect(await Promise.all(requests)).toEqual(Array(16).fill(true));
    // Each key's slots (`<key>/<bucket>[.<n>]`) together list all 17 of its person's records.
    const byKey = new Map<string, Set<string>>();
    for (const slot of await db.personIndex.find({ workspace_id: workspace }).toArray()) {
      const key = slot._id.slice(0, slot._id.indexOf('/'));
      for (const c of slot.candidates) byKey.set(key, (byKey.get(key) ?? new Set()).add(c));
    }
    expect(byKey.size).toBe(16 * 3);
    const short = [...byKey.values()].filter((k) => k.size !== 17).map((k) => k.size);
    expect(short).toEqual([]);
    // Filing the same records again (a repeated request) writes nothing.
    const before = await db.personIndex.countDocuments({ workspace_id: workspace });
    const again = await Promise.all(
      [0, 5].map((r) =>
        index.file(
          workspace,
          people.map((p) => ({ ...p, candidateDocId: `rec-${r}-${p.candidateId}` })),
        ),
      ),
    );
    expect(again).toEqual([true, true]);
    expect(await db.personIndex.countDocuments({ workspace_id: workspace })).toBe(before);
  }, 30_000);

  it('finds every call of a person filed in many projects, and forgets every slot of an older secret', async () => {
    const workspace = uniqueName('ws');
    const person = { candidateId: 'many', email: 'many@example.com', phone: '+14155557777' };
    const docs = Array.from({ length: 40 }, (_, i) => ({ _id: `${workspace}-rec-${i}`, workspace_id: workspace, calls: [`call-${i}`] }));
    await db.candidates.insertMany(docs as never);
    const older = personIndex(db, personHashKeys(db, [OLDER]));
    // Two projects at a time, as an ATS's parallel requests file them.
    for (let i = 0; i < docs.length; i += 2) {
      const both = await Promise.all(docs.slice(i, i + 2).map((d) => older.file(workspace, [{ ...person, candidateDocId: d._id }])));
      expect(both).toEqual([true, true]);
    }
    const found = await older.find(workspace, { phone: person.phone });
    expect(found.calls.sort()).toEqual(docs.map((d) => d.calls[0]).sort());
    // Each record filed again, the last first: every one is found where its chain lists it, deep or not, and
    // nothing is written.
    const slots = await db.personIndex.countDocuments({ workspace_id: workspace });
    for (const d of [...docs].reverse()) expect(await older.file(workspace, [{ ...person, candidateDocId: d._id }])).toBe(true);
    expect(await db.personIndex.countDocuments({ workspace_id: workspace })).toBe(slots);
    // The same person under a new secret, the older one kept for reading: people:rekey files anew, then forgets.
    const rekeyed = personIndex(db, personHashKeys(db, [{ version: 2, secret: Buffer.from('a newer secret of this test') }, OLDER]));
    expect(
      await rekeyed.file(
        workspace,
        docs.map((d) => ({ ...person, candidateDocId: d._id })),
      ),
    ).toBe(true);
    // One slot per key for each of the 40 filings of one record: 120 documents under the older secret.
    expect(await rekeyed.forgetOlderKeys(workspace, person)).toBe(3 * 40);
    expect(await older.find(workspace, { email: person.email })).toEqual({ calls: [], interviews: [] });
    expect((await rekeyed.find(workspace, { candidateId: person.candidateId })).calls).toHaveLength(40);
  }, 60_000);

  it('finds what was filed when keys had 16 buckets, and reports a record filed again in another bucket once', async () => {
    const workspace = uniqueName('ws');
    const person = { candidateId: 'before', email: 'before@example.com', phone: '+14155557778' };
    const docs = Array.from({ length: 12 }, (_, i) => ({ _id: `${workspace}-rec-${i}`, workspace_id: workspace, calls: [`call-${i}`] }));
    await db.candidates.insertMany(docs as never);
    const before = personIndex(db, undefined, 16);
    for (const d of docs.slice(0, 8)) expect(await before.file(workspace, [{ ...person, candidateDocId: d._id }])).toBe(true);
    const now = personIndex(db);
    for (const d of docs.slice(8)) expect(await now.file(workspace, [{ ...person, candidateDocId: d._id }])).toBe(true);
    expect((await now.find(workspace, { email: person.email })).calls.sort()).toEqual(docs.map((d) => d.calls[0]).sort());
    // The newer four filed again: nothing written. The older eight filed again (admin people:index) may land in
    // another bucket now, a second listing of the same record, which finding reports once.
    const slots = await db.personIndex.countDocuments({ workspace_id: workspace });
    for (const d of docs.slice(8)) expect(await now.file(workspace, [{ ...person, candidateDocId: d._id }])).toBe(true);
    expect(await db.personIndex.countDocuments({ workspace_id: workspace })).toBe(slots);
    for (const d of docs.slice(0, 8)) expect(await now.file(workspace, [{ ...person, candidateDocId: d._id }])).toBe(true);
    expect((await now.find(workspace, { phone: person.phone })).calls.sort()).toEqual(docs.map((d) => d.calls[0]).sort());
  }, 30_000);

  // A stopping database cancels the commands it still runs: filing then is an outage (the request's 503), not
  // a refusal of these candidates (a 200 whose entries say "please retry", as a chaos run's call/initiate did).
  it('throws ServiceUnavailableError when the database cannot be reached', async () => {
    const unreachable = new MongoClient('mongodb://127.0.0.1:1', { serverSelectionTimeoutMS: 300 });
    try {
      const gone = { ...db, personIndex: unreachable.db('x').collection('person_index') } as Database;
      const filing = personIndex(gone, personHashKeys(db, [])).file(uniqueName('ws'), [
        { candidateId: 'c', email: 'gone@example.com', phone: '+14155557779', candidateDocId: 'rec-gone' },
      ]);
      await expect(filing).rejects.toBeInstanceOf(ServiceUnavailableError);
    } finally {
      await unreachable.close();
    }
  });
});
