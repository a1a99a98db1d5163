import { connectDatabase, type Database } from '../../infra/database';
import { callSlotStore } from '../../stores/call-slots';
import { uniqueName } from '../helpers/stack';

/** The calling slots on the real database: exclusive, given back, and freed when a holder's lease runs out. */
describe('calling slots', () => {
  let db: Database;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('slots'), { monitorCommands: true });
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });
  const minute = (n: number, from = Date.now()) => new Date(from + n * 60_000);

  it('gives each of the cap slots to one holder at a time, as many at once as there are slots', async () => {
    const holders = Array.from({ length: 12 }, (_, i) => `call_${i}/1`);
    const taken = await Promise.all(holders.map((h) => callSlotStore(db).take('ws_a', h, 5, minute(10))));
    const won = taken.filter((t) => t !== null);
    expect(won).toHaveLength(5);
    expect(new Set(won.map((t) => t!.key)).size).toBe(5);
    // A holder that asks again (a retried activity) keeps what it has.
    const first = won[0]!;
    expect(await callSlotStore(db).take('ws_a', first.holder, 5, minute(10))).toEqual(first);
    await callSlotStore(db).release(first);
    expect(await callSlotStore(db).take('ws_a', 'call_late/1', 5, minute(10))).toEqual({ key: first.key, holder: 'call_late/1' });
  });

  it('finds the one free slot of many, wherever it is, past the batches a take reads first', async () => {
    const cap = 20;
    const holders = Array.from({ length: 40 }, (_, i) => `call_${i}/1`);
    const won = (await Promise.all(holders.map((h) => callSlotStore(db).take('ws_c', h, cap, minute(10))))).filter((t) => t !== null);
    expect(new Set(won.map((t) => t!.key)).size).toBe(cap);
    expect(await callSlotStore(db).take('ws_c', 'call_none/1', cap, minute(10))).toBeNull();
    // Each slot in turn is the only free one: a new holder finds it, whichever slot its own look starts at.
    for (const slot of won) {
      await callSlotStore(db).release(slot!);
      const next = `call_after_${slot!.key}/1`;
      expect(await callSlotStore(db).take('ws_c', next, cap, minute(10))).toEqual({ key: slot!.key, holder: next });
    }
  });

  it('sends a burst of takes in one process to different slots, each with one insert', async () => {
    const cap = 30;
    let inserts = 0;
    const count = (e: { commandName: string; command: Record<string, unknown> }) => {
      if (e.commandName === 'insert' && e.command.insert === 'claims') inserts++;
    };
    db.client.on('commandStarted', count);
    try {
      const won = await Promise.all(Array.from({ length: cap }, (_, i) => callSlotStore(db).take('ws_d', `call_${i}/1`, cap, minute(10))));
      expect(new Set(won.map((t) => t?.key)).size).toBe(cap);
      expect(inserts).toBe(cap);
    } finally {
      db.client.off('commandStarted', count);
    }
  });

  it('still finds a slot it took when another process gave it back', async () => {
    const mine = (await callSlotStore(db).take('ws_e', 'call_here/1', 3, minute(10)))!;
    const others = await Promise.all(['call_x/1', 'call_y/1'].map((h) => callSlotStore(db).take('ws_e', h, 3, minute(10))));
    expect(others.every((t) => t !== null)).toBe(true);
    // Released elsewhere (its activity retried on another worker): this process still counts it as held.
    await db.claims.deleteOne({ _id: mine.key });
    expect(await callSlotStore(db).take('ws_e', 'call_next/1', 3, minute(10))).toEqual({ key: mine.key, holder: 'call_next/1' });
  });

  it("hands the workspace's latest waiter to the next release, once, and a take that finds a slot leaves none", async () => {
    const slots = callSlotStore(db);
    const won = await Promise.all(['call_h1/1', 'call_h2/1', 'call_h3/1'].map((h) => slots.take('ws_w', h, 3, minute(10))));
    expect(won.every((t) => t !== null)).toBe(true);
    expect(await slots.take('ws_w', 'call_w1/1', 3, minute(10), new Date(), { waiter: 'call_w1' })).toBeNull();
    expect(await slots.take('ws_w', 'call_w2/1', 3, minute(10), new Date(), { waiter: 'call_w2' })).toBeNull();
    // The latest waiter is told, by the first release of any slot; the next release has no one to tell.
    expect(await slots.release(won[1]!)).toBe('call_w2');
    expect(await slots.release(won[2]!)).toBeNull();
    // Another workspace's waiter is its own.
    expect(await slots.take('ws_w2', 'call_o/1', 1, minute(10))).not.toBeNull();
    expect(await slots.take('ws_w2', 'call_o2/1', 1, minute(10), new Date(), { waiter: 'call_o2' })).toBeNull();
    expect(await slots.release(won[0]!)).toBeNull();
    const taken = await slots.take('ws_w', 'call_w3/1', 3, minute(10), new Date(), { waiter: 'call_w3' });
    expect(taken).not.toBeNull();
    expect(await slots.release(taken!)).toBeNull();
  });

  it('frees a slot whose holder never gave it back once its lease has run out', async () => {
    const now = Date.now();
    const lost = await callSlotStore(db).take('ws_b', 'call_lost/1', 1, minute(30, now), new Date(now));
    expect(lost).not.toBeNull();
    expect(await callSlotStore(db).take('ws_b', 'call_next/1', 1, minute(60, now), minute(29, now))).toBeNull();
    expect(await callSlotStore(db).take('ws_b', 'call_next/1', 1, minute(60, now), minute(31, now))).toEqual({
      key: lost!.key,
      holder: 'call_next/1',
    });
  });
});
