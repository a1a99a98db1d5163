import { MongoClient } from 'mongodb';
import { freePort } from '../../infra/free-port';
import { EntryTally } from '../../stores/limit-tallies';
import type { LimitEntryDoc } from '../../infra/documents/coordination';

/** What a limit's tally does when the database cannot be reached (its counting: test/stores/limits.test.ts). */
describe('a limit tally in a database outage', () => {
  it('fails the takes waiting behind a group the database could not place, without a try of their own', async () => {
    // A database that is not there: nothing listens on the port.
    const down = new MongoClient(`mongodb://127.0.0.1:${await freePort()}`, { serverSelectionTimeoutMS: 300 });
    try {
      const entries = down.db('none').collection<LimitEntryDoc>('rate_limits');
      const reads = jest.spyOn(entries, 'findOne');
      const tally = new EntryTally(entries);
      const window = { start: new Date('2026-11-28T11:00:00Z'), end: new Date('2026-11-28T12:00:00Z') };
      const takes = await Promise.allSettled(Array.from({ length: 6 }, () => tally.add('ws_1/candidates', window, 1, 10)));
      expect(takes.map((t) => t.status)).toEqual(Array(6).fill('rejected'));
      // The first take's read of the window waited out server selection; the five behind it would have again.
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      await down.close();
    }
  });
});
