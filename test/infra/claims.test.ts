import { claim, claimOf, release } from '../../infra/claims';
import { connectDatabase, type Database } from '../../infra/database';
import { uniqueName } from '../helpers/stack';

describe('claims on the real database', () => {
  let db: Database;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('claims'));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  it('lets exactly one of many concurrent claimants win, every round', async () => {
    for (let round = 0; round < 10; round++) {
      const key = `k/${round}`;
      const holders = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(db, key, `h${i}`)));
      const winners = holders.filter((h, i) => h === `h${i}`);
      expect(winners).toHaveLength(1);
      // Everyone agrees on who won.
      expect(new Set(holders)).toEqual(new Set(winners));
    }
  });

  it('keeps a live claim, hands over an expired one, and releases only for its holder', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const later = new Date('2026-01-01T00:05:00Z');
    expect(await claim(db, 'lease', 'a', { now, expiresAt: new Date(now.getTime() + 60_000) })).toBe('a');
    expect(await claim(db, 'lease', 'b', { now })).toBe('a');
    expect(await claim(db, 'lease', 'b', { now: later, expiresAt: new Date(later.getTime() + 60_000) })).toBe('b');
    await release(db, 'lease', 'a');
    expect((await claimOf(db, 'lease'))?.holder).toBe('b');
    await release(db, 'lease', 'b');
    expect(await claimOf(db, 'lease')).toBeNull();
    expect(await claim(db, 'lease', 'c')).toBe('c');
  });

  it('never expires a claim made without a lease', async () => {
    expect(await claim(db, 'forever', 'x')).toBe('x');
    expect(await claim(db, 'forever', 'y', { now: new Date('2100-01-01T00:00:00Z') })).toBe('x');
  });
});
