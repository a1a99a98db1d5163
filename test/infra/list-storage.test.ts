import { MongoClient } from 'mongodb';
import { connectDatabase, type Database } from '../../infra/database';
import { freePort } from '../../infra/free-port';
import { ServiceUnavailableError } from '../../shared/errors';
import { asUnavailable } from '../../infra/unavailable';
import { cellLogs, type CellDoc } from '../../infra/lists/cell-log';
import { timeIndex, type Entry, type Position } from '../../infra/lists/time-index';
import { FEED_SETTLE_MS, itemList, type ListedItem } from '../../infra/lists/item-list';
import { uniqueName } from '../helpers/stack';

/**
 * The lists' storage under concurrent writers, each with its own connection and its own memory of cells and
 * markers, as separate processes have. Many writers in one second is what lost entries when lists were `$set`s
 * into shared documents.
 */
describe('list storage on the real database', () => {
  const name = uniqueName('list-storage');
  let writers: Database[];
  beforeAll(async () => {
    writers = await Promise.all([1, 2, 3].map(() => connectDatabase(process.env.TEST_MONGODB_URI!, name)));
  });
  afterAll(async () => {
    await writers?.[0]?.db.dropDatabase();
    await Promise.all((writers ?? []).map((db) => db.close()));
  });

  it('keeps every append of many concurrent writers exactly once, in gapless cells', async () => {
    const logs = writers.map((db) => cellLogs(db.listIndex));
    await Promise.all(logs.flatMap((log, w) => Array.from({ length: 40 }, (_, i) => log.append('concurrent', [`w${w}-${i}`]))));
    const all = await cellLogs(writers[0].listIndex).read('concurrent');
    expect([...all].sort()).toEqual(logs.flatMap((_, w) => Array.from({ length: 40 }, (__, i) => `w${w}-${i}`)).sort());
    // Appends waiting on one in flight share the next cell: far fewer cells than appends.
    const cells = await writers[0].listIndex.countDocuments({ _id: { $regex: /^concurrent\|/ } });
    expect(cells).toBeLessThan(60);
    for (let i = 0; i < cells; i++) expect(await writers[0].listIndex.findOne({ _id: `concurrent|${i}` })).not.toBeNull();
  });

  it('writes an append made as the last round ends, a few ticks after the one before it was stored', async () => {
    // A process of its own, with no other append to start a write: an append left out of every round would
    // wait for good (a request through a quiet API process did, 20 s and more).
    const log = cellLogs(writers[0].listIndex);
    const within = (p: Promise<void>) =>
      Promise.race([p.then(() => 'stored'), new Promise((r) => setTimeout(() => r('left waiting'), 2_000))]);
    for (let ticks = 0; ticks < 12; ticks++) {
      await log.append(`ticks-${ticks}`, ['first']);
      for (let t = 0; t < ticks; t++) await Promise.resolve();
      expect([ticks, await within(log.append(`ticks-${ticks}`, ['second']))]).toEqual([ticks, 'stored']);
    }
  });

  it('fails the appends waiting behind a round the database could not take, without a round of their own', async () => {
    // A database that is not there: nothing listens on the port.
    const down = new MongoClient(`mongodb://127.0.0.1:${await freePort()}`, { serverSelectionTimeoutMS: 300 });
    try {
      const collection = down.db('none').collection<CellDoc>('list_index');
      const bulkWrite = jest.spyOn(collection, 'bulkWrite');
      const log = cellLogs(collection);
      const first = [log.append('a', ['1']), log.append('b', ['1'])];
      await new Promise((r) => setImmediate(r));
      expect(bulkWrite).toHaveBeenCalledTimes(1);
      // Arrived while that round waits for a database that is gone.
      const waiting = [log.append('a', ['2']), log.append('c', ['1'])];
      const results = await Promise.allSettled([...first, ...waiting]);
      expect(results.map((r) => r.status === 'rejected' && r.reason instanceof ServiceUnavailableError)).toEqual([true, true, true, true]);
      expect(bulkWrite).toHaveBeenCalledTimes(1);
    } finally {
      await down.close();
    }
  });

  it('fails the appends waiting behind a count of cells the database could not answer, without a round of their own', async () => {
    // Its inserts reach the database; its reads go to one that is not there (nothing listens on the port), as
    // when the database goes away between a round's insert and the count of a log whose cell was taken.
    const down = new MongoClient(`mongodb://127.0.0.1:${await freePort()}`, { serverSelectionTimeoutMS: 300 });
    const mine = await connectDatabase(process.env.TEST_MONGODB_URI!, name);
    try {
      const unreachable = down.db('none').collection<CellDoc>('list_index');
      let countStarted!: () => void;
      const counting = new Promise<void>((r) => (countStarted = r));
      jest.spyOn(mine.listIndex, 'findOne').mockImplementation(((filter: { _id: string }) => {
        countStarted();
        return unreachable.findOne(filter);
      }) as never);
      const bulkWrite = jest.spyOn(mine.listIndex, 'bulkWrite');
      // Another process has written the first cell: this process's append finds it taken and counts the log.
      await cellLogs(writers[1].listIndex).append('count-fails', ['theirs']);
      const log = cellLogs(mine.listIndex);
      const first = log.append('count-fails', ['mine']);
      await counting;
      // Arrived while the count waits for a database that is gone.
      const waiting = [log.append('count-fails', ['later']), log.append('count-fails-other', ['later'])];
      const results = await Promise.allSettled([first, ...waiting]);
      expect(results.map((r) => r.status === 'rejected' && asUnavailable(r.reason) !== null)).toEqual([true, true, true]);
      expect(bulkWrite).toHaveBeenCalledTimes(1);
      expect(await writers[0].listIndex.findOne({ _id: 'count-fails-other|0' })).toBeNull();
    } finally {
      jest.restoreAllMocks();
      await Promise.all([down.close(), mine.close()]);
    }
  });

  it("writes the next cells of several logs in one command, and each log's appends in order across processes", async () => {
    const counted = await connectDatabase(process.env.TEST_MONGODB_URI!, name, { monitorCommands: true });
    try {
      let inserts = 0;
      counted.client.on('commandStarted', (e) => void (e.commandName === 'insert' && inserts++));
      const mine = cellLogs(counted.listIndex);
      // Another process has written the first cell of one of the logs: that log's append takes the next one.
      await cellLogs(writers[1].listIndex).append('several-b', ['theirs']);
      await Promise.all(['several-a', 'several-b', 'several-c'].map((log) => mine.append(log, [`${log}-1`])));
      // One command for the three; one more for the log whose cell was taken.
      expect(inserts).toBe(2);
      await mine.append('several-b', ['several-b-2']);
      expect(await cellLogs(writers[2].listIndex).read('several-b')).toEqual(['theirs', 'several-b-1', 'several-b-2']);
      expect(await cellLogs(writers[2].listIndex).read('several-a')).toEqual(['several-a-1']);
    } finally {
      await counted.close();
    }
  });

  it('walks entries written concurrently into one second, the last change of each winning, removals gone', async () => {
    const indexes = writers.map((db) => timeIndex(db.listIndex));
    const at = Date.UTC(2026, 0, 2, 3, 4, 5, 600);
    const entry = (i: number, value: string): Entry => ({
      key: 'one-second',
      id: `item-${String(i).padStart(3, '0')}`,
      at: at + (i % 7),
      value,
    });
    await Promise.all(Array.from({ length: 90 }, (_, i) => indexes[i % 3].add([entry(i, 'new')])));
    await Promise.all(Array.from({ length: 30 }, (_, i) => indexes[(i + 1) % 3].add([entry(i, 'changed')])));
    await indexes[2].remove([entry(89, ''), entry(88, '')]);

    const walked: Entry[] = [];
    for await (const e of timeIndex(writers[0].listIndex).walk('one-second', 'desc', null)) walked.push(e);
    expect(walked).toHaveLength(88);
    expect(walked.filter((e) => e.value === 'changed')).toHaveLength(30);
    const order = walked.map((e) => [e.at, e.id] as const);
    expect(order).toEqual([...order].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : -1)));

    // From a position, in either direction, strictly past it.
    const middle = walked[40];
    const older: Entry[] = [];
    for await (const e of timeIndex(writers[1].listIndex).walk('one-second', 'desc', middle)) older.push(e);
    expect(older).toEqual(walked.slice(41));
    const newer: Entry[] = [];
    for await (const e of timeIndex(writers[2].listIndex).walk('one-second', 'asc', middle)) newer.push(e);
    expect(newer).toEqual(walked.slice(0, 40).reverse());
  });

  it('finds entries across seconds, minutes, days and spans in both directions', async () => {
    const index = timeIndex(writers[0].listIndex);
    const times = [Date.UTC(2025, 11, 31, 23, 59, 59), Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1, 0, 1), Date.UTC(2026, 2, 9, 12)];
    await index.add(times.map((at, i) => ({ key: 'spread', id: `s${i}`, at, value: 'v' })));
    const walk = async (dir: 'asc' | 'desc', until?: number) => {
      const ids: string[] = [];
      for await (const e of timeIndex(writers[1].listIndex).walk('spread', dir, null, until)) ids.push(e.id);
      return ids;
    };
    expect(await walk('desc')).toEqual(['s3', 's2', 's1', 's0']);
    expect(await walk('asc')).toEqual(['s0', 's1', 's2', 's3']);
    expect(await walk('asc', times[2])).toEqual(['s0', 's1']);
  });

  it('reads settled items from their snapshots, and the items themselves where a snapshot is missing or older', async () => {
    interface Item extends ListedItem {
      status: string;
      note: string;
    }
    const db = writers[0];
    const items = db.db.collection<Item>('snapshot_items');
    const list = itemList(timeIndex(db.listIndex), {
      name: 'snapshot-items',
      collection: items,
      snapshots: db.listSnapshots,
      fields: (i) => ({ ats_job_id: i.ats_job_id, status: i.status }),
      settled: (f) => f.status === 'done',
    });
    const created = new Date(Date.now() - 60_000);
    const docs: Item[] = ['a', 'b', 'c'].map((id) => ({
      _id: id,
      workspace_id: 'ws',
      ats_job_id: 'job',
      status: 'new',
      note: '',
      created_at: created,
      updated_at: created,
    }));
    await list.created(docs);
    await items.insertMany(docs);
    const page = () => list.page('ws', { match: { ats_job_id: 'job' }, createdSince: null, updatedSince: null, limit: 10, after: null });
    const version = async (id: string) => (await db.listSnapshots.findOne({ _id: `snapshot-items|${id}` }))?.v;

    // Under way (not settled): read from the items, and not kept.
    expect((await page()).items).toEqual(await items.find().sort({ _id: -1 }).toArray());
    expect(await version('a')).toBeUndefined();

    // Settled by a change: kept at once, at the change's version.
    const { at } = await list.update(docs[0], { status: 'done' }, (at) => ({ $set: { status: 'done', note: 'x', updated_at: at } }));
    expect(await version('a')).toBe(at.getTime());
    const a = await items.findOne({ _id: 'a' });
    expect(a).toMatchObject({ status: 'done', note: 'x' });
    const done = () => list.page('ws', { match: { status: 'done' }, createdSince: null, updatedSince: null, limit: 10, after: null });
    expect((await done()).items).toEqual([a]);

    // A write that is no change keeps a settled item's snapshot in step with it.
    await list.touch('a', { $set: { note: 'touched' } });
    expect((await done()).items).toEqual([{ ...a, note: 'touched' }]);

    // Settled outside the list (a writer that died before its snapshot): the first read keeps it.
    await items.updateOne({ _id: 'b' }, { $set: { status: 'done' } });
    await list.update(docs[2], { status: 'done' }, (at) => ({ $set: { status: 'done', updated_at: at } }));
    // A snapshot of an older version than the entries name (two writers of one item, the older one last) is
    // passed over for the item itself.
    await db.listSnapshots.updateOne({ _id: 'snapshot-items|c' }, { $set: { v: 1, j: '{"_id":"stale"}' } });
    expect((await page()).items.map((i) => [i._id, i.status, i.note])).toEqual([
      ['c', 'done', ''],
      ['b', 'done', ''],
      ['a', 'done', 'touched'],
    ]);
    expect(await version('b')).toBe(created.getTime());
    expect(await version('c')).toBe((await items.findOne({ _id: 'c' }))!.updated_at.getTime());
  });

  it('puts new items in the feed when they are listed, so a reader already past their creation time sees them', async () => {
    const db = writers[1];
    const items = db.db.collection<ListedItem>('late_items');
    const list = itemList(timeIndex(db.listIndex), {
      name: 'late-items',
      collection: items,
      snapshots: db.listSnapshots,
      fields: (i) => ({ ats_job_id: i.ats_job_id }),
      settled: () => false,
    });
    const feed = (after: Position | null) =>
      list.page('ws', { match: {}, createdSince: null, updatedSince: new Date(Date.now() - 30_000), limit: 10, after });
    const caughtUp = await feed(null);
    expect(caughtUp.items).toEqual([]);

    // Made a minute ago by a request that took that long to list it.
    const made = new Date(Date.now() - 60_000);
    const doc: ListedItem = { _id: 'late', workspace_id: 'ws', ats_job_id: 'job', created_at: made, updated_at: made };
    await items.insertOne(doc);
    await list.created([doc]);
    await new Promise((r) => setTimeout(r, FEED_SETTLE_MS + 200));
    expect((await feed(caughtUp.next)).items).toEqual([doc]);
  });
});
