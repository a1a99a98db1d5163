import { claim, claimOf, release, sweepExpiredClaims } from '../../infra/claims';
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

  it('sweeps what ran out over an hour ago, and what was written before lifetimes once as old as its lifetime; never an upload nor a claim without a lease', async () => {
    const now = new Date('2026-06-01T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const hour = 3_600_000;
    const day = 24 * hour;
    const claims = [
      // Spent past the grace: removed.
      { _id: 'dial-cap/old/0', holder: 'd', expires_at: ago(hour + 1), created_at: ago(day) },
      // Spent within the grace, or still live: kept.
      { _id: 'dial-cap/recent/0', holder: 'd', expires_at: ago(hour - 60_000), created_at: ago(day) },
      { _id: 'send/whatsapp/call_live/pre_call', holder: 's', expires_at: new Date(now.getTime() + day), created_at: now },
      // Written by the code before lifetimes, with none: removed once older than the lifetime they have now.
      { _id: 'call-back-try/old-inbound/1', holder: 't', expires_at: null, created_at: ago(2 * day + hour + 1) },
      { _id: 'call-back-identity/call_old/2', holder: 'p', expires_at: null, created_at: ago(2 * day + hour + 1) },
      { _id: 'live-hold/int_old', holder: '3', expires_at: null, created_at: ago(day + hour + 1) },
      { _id: 'call-back-try/new-inbound/1', holder: 't', expires_at: null, created_at: ago(day) },
      { _id: 'live-hold/int_new', holder: '1', expires_at: null, created_at: ago(hour) },
      // Never by this sweep: an upload's (its recordings' sweep removes it with its chunks), and claims without a lease.
      { _id: 'upload/int_up/0', holder: 'rec', expires_at: ago(day), created_at: ago(day) },
      { _id: 'call/prj_1/cand_1', holder: 'call_1', expires_at: null, created_at: ago(30 * day) },
    ];
    await db.claims.insertMany(claims);
    expect(await sweepExpiredClaims(db, now)).toBe(4);
    const left = (await db.claims.find({ _id: { $in: claims.map((c) => c._id) } }).toArray()).map((c) => c._id).sort();
    expect(left).toEqual(
      [
        'dial-cap/recent/0',
        'send/whatsapp/call_live/pre_call',
        'call-back-try/new-inbound/1',
        'live-hold/int_new',
        'upload/int_up/0',
        'call/prj_1/cand_1',
      ].sort(),
    );
  });
});
