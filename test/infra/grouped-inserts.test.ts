import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { connectDatabase, type Database } from '../../infra/database';
import { freePort } from '../../infra/free-port';
import { groupedInserts } from '../../infra/grouped-inserts';
import { ServiceUnavailableError } from '../../shared/errors';
import { uniqueName } from '../helpers/stack';

/** Inserts grouped while one is in flight, on the real database: each caller told of its own document. */
describe('grouped inserts', () => {
  let db: Database;
  let inserts = 0;
  const count = (e: CommandStartedEvent) => void (e.commandName === 'insert' && inserts++);
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('grouped'), { monitorCommands: true });
    db.client.on('commandStarted', count);
  });
  afterAll(async () => {
    db?.client.off('commandStarted', count);
    await db?.db.dropDatabase();
    await db?.close();
  });
  beforeEach(() => (inserts = 0));
  const docs = () => db.db.collection<{ _id: string; n: number }>(uniqueName('docs'));

  it('stores a burst in two commands: the first alone, at once, and the rest together', async () => {
    const collection = docs();
    const insert = groupedInserts(collection);
    const results = await Promise.all(Array.from({ length: 30 }, (_, n) => insert({ _id: `d${n}`, n })));
    expect(results).toEqual(Array(30).fill('written'));
    expect(inserts).toBe(2);
    expect(await collection.countDocuments()).toBe(30);
    // Alone again: one command of its own.
    expect(await insert({ _id: 'late', n: 30 })).toBe('written');
    expect(inserts).toBe(3);
  });

  it('tells each caller whether its own document was there already, the first of an _id kept', async () => {
    const collection = docs();
    const insert = groupedInserts(collection);
    await insert({ _id: 'kept', n: 1 });
    const results = await Promise.all([
      insert({ _id: 'a', n: 1 }),
      insert({ _id: 'kept', n: 2 }),
      insert({ _id: 'b', n: 1 }),
      insert({ _id: 'b', n: 2 }),
    ]);
    expect(results).toEqual(['written', 'duplicate', 'written', 'duplicate']);
    expect(await collection.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', n: 1 },
      { _id: 'b', n: 1 },
      { _id: 'kept', n: 1 },
    ]);
  });

  it('fails the inserts waiting behind one the database could not take, without a command of their own', async () => {
    // A database that is not there: nothing listens on the port.
    const down = new MongoClient(`mongodb://127.0.0.1:${await freePort()}`, { serverSelectionTimeoutMS: 300 });
    try {
      const collection = down.db('none').collection<{ _id: string; n: number }>('docs');
      const bulkWrite = jest.spyOn(collection, 'bulkWrite');
      const insert = groupedInserts(collection);
      const results = await Promise.allSettled(Array.from({ length: 6 }, (_, n) => insert({ _id: `d${n}`, n })));
      expect(results.map((r) => r.status === 'rejected' && r.reason instanceof ServiceUnavailableError)).toEqual(Array(6).fill(true));
      // The five that waited would have waited out server selection again.
      expect(bulkWrite).toHaveBeenCalledTimes(1);
    } finally {
      await down.close();
    }
  });
});
