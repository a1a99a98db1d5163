import { connectDatabase, type Database } from '../../infra/database';
import { personIndex } from '../../stores/person-index';
import { uniqueName } from '../helpers/stack';

/**
 * The person index on the real database: requests filing the same person at once (one ATS sending the same
 * people for several jobs in parallel) must each find its record under the person's keys afterwards, and
 * must all be answered.
 */
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
    // The people are known first, so every later filing is an update of their keys.
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
    const keys = await db.personIndex.find({ workspace_id: workspace }).toArray();
    expect(keys).toHaveLength(16 * 3);
    const short = keys.filter((k) => k.candidates.length !== 17).map((k) => k.candidates.length);
    expect(short).toEqual([]);
  }, 30_000);
});
