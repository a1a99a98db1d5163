import { connectDatabase, type Database } from '../../infra/database';
import { uniqueName } from '../helpers/stack';

/**
 * Every hot path reads and writes by exact `_id`, which only pays off if the server answers it from the `_id`
 * index. FerretDB 1.24's SQLite backend did not (its lookup and its index spelt the path differently), so
 * scripts/provision.sh builds it with the lookup that matches; its find, update and delete share that lookup.
 */
describe('an exact _id lookup is answered from the _id index', () => {
  let db: Database;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('idindex'));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  it('plans a find by _id as an index search, not a scan of the collection', async () => {
    const col = db.db.collection<{ _id: string; n: number }>('things');
    await col.insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `t${n}`, n })));
    const plan = JSON.stringify(await db.db.command({ explain: { find: 'things', filter: { _id: 't7' } } }));
    // FerretDB on SQLite reports SQLite's own plan; MongoDB its stages.
    expect(plan).toMatch(/SEARCH \S+ USING INDEX|IDHACK|EXPRESS_IXSCAN|IXSCAN/);
    expect(plan).not.toMatch(/detail=SCAN |COLLSCAN/);
    expect(await col.findOne({ _id: 't7' })).toEqual({ _id: 't7', n: 7 });
  });
});
