import { connectDatabase, type Database } from '../../infra/database';
import { releaseSlot, takeSlot } from '../../infra/call-slots';
import { uniqueName } from '../helpers/stack';

/** The calling slots on the real database: exclusive, given back, and freed when a holder's lease runs out. */
describe('calling slots', () => {
  let db: Database;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('slots'));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });
  const minute = (n: number, from = Date.now()) => new Date(from + n * 60_000);

  it('gives each of the cap slots to one holder at a time, as many at once as there are slots', async () => {
    const holders = Array.from({ length: 12 }, (_, i) => `call_${i}/1`);
    const taken = await Promise.all(holders.map((h) => takeSlot(db, 'ws_a', h, 5, minute(10))));
    const won = taken.filter((t) => t !== null);
    expect(won).toHaveLength(5);
    expect(new Set(won.map((t) => t!.key)).size).toBe(5);
    // A holder that asks again (a retried activity) keeps what it has.
    const first = won[0]!;
    expect(await takeSlot(db, 'ws_a', first.holder, 5, minute(10))).toEqual(first);
    await releaseSlot(db, first);
    expect(await takeSlot(db, 'ws_a', 'call_late/1', 5, minute(10))).toEqual({ key: first.key, holder: 'call_late/1' });
  });

  it('finds the one free slot of many, wherever it is, past the batches a take reads first', async () => {
    const cap = 20;
    const holders = Array.from({ length: 40 }, (_, i) => `call_${i}/1`);
    const won = (await Promise.all(holders.map((h) => takeSlot(db, 'ws_c', h, cap, minute(10))))).filter((t) => t !== null);
    expect(new Set(won.map((t) => t!.key)).size).toBe(cap);
    expect(await takeSlot(db, 'ws_c', 'call_none/1', cap, minute(10))).toBeNull();
    // Each slot in turn is the only free one: a new holder finds it, whichever slot its own look starts at.
    for (const slot of won) {
      await releaseSlot(db, slot!);
      const next = `call_after_${slot!.key}/1`;
      expect(await takeSlot(db, 'ws_c', next, cap, minute(10))).toEqual({ key: slot!.key, holder: next });
    }
  });

  it('frees a slot whose holder never gave it back once its lease has run out', async () => {
    const now = Date.now();
    const lost = await takeSlot(db, 'ws_b', 'call_lost/1', 1, minute(30, now), new Date(now));
    expect(lost).not.toBeNull();
    expect(await takeSlot(db, 'ws_b', 'call_next/1', 1, minute(60, now), minute(29, now))).toBeNull();
    expect(await takeSlot(db, 'ws_b', 'call_next/1', 1, minute(60, now), minute(31, now))).toEqual({
      key: lost!.key,
      holder: 'call_next/1',
    });
  });
});
