import { connectDatabase, type Database } from '../../infra/database';
import { DIAL_CAP_WINDOW_MS, dialCapStore } from '../../stores/dial-caps';
import { uniqueName } from '../helpers/stack';

/** The cap of dials to one phone in 24 hours, on the real database: exact at once, freed a day later, keyed. */
describe('dial caps', () => {
  let db: Database;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('dialcaps'));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });
  const t0 = Date.UTC(2026, 10, 26, 9);
  const at = (ms: number) => new Date(t0 + ms);

  it('lets exactly the cap of dials at once through, and holds the rest until the oldest is a day old', async () => {
    const caps = dialCapStore(db);
    const taken = await Promise.all(Array.from({ length: 12 }, (_, i) => caps.take('ws_a', '+14155550100', `call_${i}/1`, 3, at(0))));
    expect(taken.filter((t) => t.go)).toHaveLength(3);
    for (const t of taken.filter((t) => !t.go)) expect(t).toEqual({ go: false, at: t0 + DIAL_CAP_WINDOW_MS });
    // A dial that took one goes again (a retried activity) without a second.
    const winner = taken.findIndex((t) => t.go);
    expect(await caps.take('ws_a', '+14155550100', `call_${winner}/1`, 3, at(60_000))).toEqual({ go: true });
    expect(await caps.take('ws_a', '+14155550100', 'call_late/1', 3, at(DIAL_CAP_WINDOW_MS - 1))).toEqual({
      go: false,
      at: t0 + DIAL_CAP_WINDOW_MS,
    });
    expect(await caps.take('ws_a', '+14155550100', 'call_late/1', 3, at(DIAL_CAP_WINDOW_MS))).toEqual({ go: true });
    // Another phone, or the same phone in another workspace, has its own.
    expect(await caps.take('ws_a', '+14155550101', 'call_x/1', 3, at(0))).toEqual({ go: true });
    expect(await caps.take('ws_b', '+14155550100', 'call_y/1', 3, at(0))).toEqual({ go: true });
  });

  it('keeps no phone number in the clear', async () => {
    await dialCapStore(db).take('ws_c', '+14155550188', 'call_z/1', 1, at(0));
    const all = JSON.stringify(await db.claims.find({ _id: { $regex: '^dial-cap/' } }).toArray());
    expect(all).not.toContain('4155550188');
    expect(all).toContain('call_z/1');
  });
});
