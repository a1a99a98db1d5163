import { ServiceUnavailableError } from '../../shared/errors';
import { MongoClient } from 'mongodb';
import { connectDatabase, type Database } from '../../infra/database';
import { bulkWriteEach, insertEach } from '../../infra/duplicate-key';
import { uniqueName } from '../helpers/stack';

describe('bulk writes with an outcome per document, on the real database', () => {
  let db: Database;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('bulk'));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  it('inserts the new documents of an unordered batch and names each duplicate by its place', async () => {
    const col = db.db.collection<{ _id: string; v: number }>('things');
    await col.insertMany([
      { _id: 'b', v: 0 },
      { _id: 'd', v: 0 },
    ]);
    const outcomes = await insertEach(col, [
      { _id: 'a', v: 1 },
      { _id: 'b', v: 1 },
      { _id: 'c', v: 1 },
      { _id: 'd', v: 1 },
      { _id: 'c', v: 2 },
    ]);
    expect(outcomes).toEqual(['written', 'duplicate', 'written', 'duplicate', 'duplicate']);
    expect(await col.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 'a', v: 1 },
      { _id: 'b', v: 0 },
      { _id: 'c', v: 1 },
      { _id: 'd', v: 0 },
    ]);
    expect(await insertEach(col, [])).toEqual([]);
  });

  it('upserts by _id, each update a command of its own', async () => {
    const col = db.db.collection<{ _id: string; n: number; first?: boolean }>('upserts');
    await col.insertOne({ _id: 'x', n: 0 });
    const outcomes = await bulkWriteEach(
      col,
      ['x', 'y'].map((_id) => ({
        updateOne: { filter: { _id }, update: { $set: { n: 5 }, $setOnInsert: { first: true } }, upsert: true },
      })),
    );
    expect(outcomes).toEqual(['written', 'written']);
    expect(await col.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 'x', n: 5 },
      { _id: 'y', n: 5, first: true },
    ]);
  });

  // FerretDB 1.24 stopped answering when 4 bulks of 50 updates were in flight at once, as 4 concurrent
  // requests for the same people made them in the person index; 8 of 50 is well past that. (FerretDB may
  // lose one of two concurrent updates of a document: stores/person-index.ts reads back what it must keep.)
  it('answers many concurrent batches of updates to the same documents', async () => {
    const col = db.db.collection<{ _id: string; ids: string[] }>('concurrent');
    await col.insertMany(Array.from({ length: 75 }, (_, i) => ({ _id: `k${i}`, ids: [] })));
    const batch = (j: number) =>
      bulkWriteEach(
        col,
        Array.from({ length: 50 }, (_, i) => ({
          updateOne: { filter: { _id: `k${(i + j * 7) % 75}` }, update: { $addToSet: { ids: `r${j}` } } },
        })),
      );
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, j) => batch(j)));
    expect(outcomes.flat().filter((o) => o !== 'written')).toEqual([]);
  }, 20_000);

  it('throws ServiceUnavailableError when the database cannot be reached', async () => {
    const unreachable = new MongoClient('mongodb://127.0.0.1:1', { serverSelectionTimeoutMS: 300 });
    try {
      await expect(insertEach(unreachable.db('x').collection<{ _id: string }>('y'), [{ _id: 'a' }, { _id: 'b' }])).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
    } finally {
      await unreachable.close();
    }
  });

  it('marks every document as an error when the command itself fails otherwise', async () => {
    // Over BSON's 16 MiB document limit: refused before anything is sent.
    const huge = { _id: 'big', text: 'x'.repeat(17 * 1024 * 1024) };
    expect(await insertEach(db.db.collection<{ _id: string; text?: string }>('huge'), [huge, { _id: 'small' }])).toEqual([
      'error',
      'error',
    ]);
  });
});
