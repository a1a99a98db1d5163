import { coalescedReads } from '../../infra/coalesced-reads';
import { connectDatabase, type Database } from '../../infra/database';
import { uniqueName } from '../helpers/stack';

/** A read whose every start is recorded and which ends when the test says so. */
function steppedReads() {
  const started: Array<{ id: string; end: (v: string | null) => void; fail: (e: Error) => void }> = [];
  const read = (id: string) =>
    new Promise<{ v: string } | null>((resolve, reject) =>
      started.push({ id, end: (v) => resolve(v === null ? null : { v }), fail: reject }),
    );
  return { started, shared: coalescedReads(read) };
}
const settle = () => new Promise((r) => setImmediate(r));

describe('coalesced reads', () => {
  it('lets callers join the next read to start, never the one in flight', async () => {
    const { started, shared } = steppedReads();
    const first = shared('a');
    expect(started).toHaveLength(1);
    // Asked while the first read is in flight: they may not take its answer, which may predate them.
    const second = shared('a');
    const third = shared('a');
    await settle();
    expect(started).toHaveLength(1);
    started[0].end('before');
    expect(await first).toEqual({ v: 'before' });
    await settle();
    expect(started).toHaveLength(2);
    // One asking now joins neither: the second read is in flight, so it waits for a third.
    const fourth = shared('a');
    started[1].end('after');
    expect(await second).toEqual({ v: 'after' });
    expect(await third).toBe(await second);
    await settle();
    expect(started).toHaveLength(3);
    started[2].end('latest');
    expect(await fourth).toEqual({ v: 'latest' });
    // Nothing in flight: a read of its own, at once.
    void shared('a');
    expect(started).toHaveLength(4);
  });

  it('shares nothing between ids, and a failure only with the callers of that read', async () => {
    const { started, shared } = steppedReads();
    const a = shared('a');
    const b = shared('b');
    expect(started.map((s) => s.id)).toEqual(['a', 'b']);
    started[0].fail(new Error('down'));
    await expect(a).rejects.toThrow('down');
    started[1].end(null);
    expect(await b).toBeNull();
    await settle();
    // The failed read is not remembered: the next caller reads again.
    const again = shared('a');
    expect(started).toHaveLength(3);
    started[2].end('up');
    expect(await again).toEqual({ v: 'up' });
  });

  it('gives the callers waiting on a failed read its failure, and the next caller a read of its own', async () => {
    const { started, shared } = steppedReads();
    const first = shared('a');
    const waiting = [shared('a'), shared('a')];
    started[0].fail(new Error('down'));
    await expect(first).rejects.toThrow('down');
    // No second read: theirs would wait out the same outage again.
    for (const w of waiting) await expect(w).rejects.toThrow('down');
    await settle();
    expect(started).toHaveLength(1);
    const later = shared('a');
    expect(started).toHaveLength(2);
    started[1].end('up');
    expect(await later).toEqual({ v: 'up' });
  });

  describe('on the real database', () => {
    let db: Database;
    beforeAll(async () => {
      db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('coalesced'));
    });
    afterAll(async () => {
      await db?.db.dropDatabase();
      await db?.close();
    });

    it('gives a burst the document as written before it asked, however many ask at once', async () => {
      const id = 'ws_coalesced';
      const sender = { first_name: 'Ada', last_name: 'Byron', company: 'Acme' };
      await db.workspaces.insertOne({ _id: id, name: 'Before', sender, created_at: new Date() });
      const early = Array.from({ length: 20 }, () => db.shared.workspace(id));
      await db.workspaces.updateOne({ _id: id }, { $set: { name: 'After' } });
      const late = await Promise.all(Array.from({ length: 20 }, () => db.shared.workspace(id)));
      expect((await Promise.all(early)).every((w) => w !== null)).toBe(true);
      expect(late.map((w) => w?.name)).toEqual(Array(20).fill('After'));
      expect(await db.shared.workspace('ws_none')).toBeNull();
    });
  });
});
