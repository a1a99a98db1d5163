import { connectDatabase, type Database } from '../../infra/database';
import { Limit, type LimitDecision } from '../../stores/limits';
import { uniqueName } from '../helpers/stack';

/**
 * Each way of counting on the real database: the run of entries (FerretDB's) and the counter (MongoDB's).
 * The counter is exact under concurrency only where updates are isolated, so its races run on MongoDB only.
 */
describe.each(['entries', 'counter'] as const)('limits on the real database (%s)', (tally) => {
  let db: Database;
  let limiter: Limit;
  /** Whether this way of counting is exact under concurrency on this database. */
  const raceable = () => tally === 'entries' || db.engine === 'mongodb';
  const t0 = new Date('2026-03-01T10:00:07.250Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName(`ratelimit-${tally}`));
    limiter = new Limit(db, { limit: 5, windowSeconds: 60, tally });
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  it('grants exactly the limit to many concurrent callers, every round', async () => {
    if (!raceable()) return;
    for (let round = 0; round < 5; round++) {
      const decisions = await Promise.all(Array.from({ length: 20 }, () => limiter.take(`concurrent/${round}`, t0)));
      const granted = decisions.filter((d) => d.allowed);
      expect(granted).toHaveLength(5);
      // Each granted request learns how many are left after it.
      expect(granted.map((d) => d.remaining).sort()).toEqual([0, 1, 2, 3, 4]);
      for (const d of decisions.filter((x) => !x.allowed)) expect(d.remaining).toBe(0);
    }
  });

  it('reports the window end and the seconds until it, and starts afresh in the next window', async () => {
    for (let i = 0; i < 5; i++) expect((await limiter.take('windows', at(i * 1000))).remaining).toBe(4 - i);
    const refused = await limiter.take('windows', at(10_000));
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 5 });
    expect(refused.resetAt).toEqual(new Date('2026-03-01T10:01:00Z'));
    expect(refused.retryAfterSeconds).toBe(43); // 10:00:17.25 → 10:01:00, rounded up
    expect(await limiter.take('windows', new Date('2026-03-01T10:00:59.999Z'))).toMatchObject({ allowed: false, retryAfterSeconds: 1 });

    const next = await limiter.take('windows', new Date('2026-03-01T10:01:00Z'));
    expect(next).toMatchObject({ allowed: true, remaining: 4 });
    expect(next.resetAt).toEqual(new Date('2026-03-01T10:02:00Z'));
  });

  it('keeps keys apart', async () => {
    for (let i = 0; i < 5; i++) await limiter.take('apart/a', t0);
    expect((await limiter.take('apart/a', t0)).allowed).toBe(false);
    expect(await limiter.take('apart/b', t0)).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('peeks without spending, and a refund gives back what was taken', async () => {
    expect(await limiter.peek('refund', t0)).toMatchObject({ allowed: true, remaining: 5 });
    const first = await limiter.take('refund', t0);
    await limiter.take('refund', t0);
    expect(await limiter.peek('refund', t0)).toMatchObject({ remaining: 3 });
    expect(await limiter.giveBack(first, t0)).toMatchObject({ remaining: 4, taken: undefined });
    expect(await limiter.peek('refund', t0)).toMatchObject({ remaining: 4 });
    // A refusal took nothing, so it has nothing to give back.
    await limiter.take('refund', t0, 4);
    const refused = await limiter.take('refund', t0);
    expect(await limiter.giveBack(refused, t0)).toMatchObject({ remaining: 0 });
  });

  it('takes an amount whole or not at all, and many processes share one count', async () => {
    const other = new Limit(db, { limit: 100, windowSeconds: 3600, tally });
    const mine = new Limit(db, { limit: 100, windowSeconds: 3600, tally });
    expect(await mine.take('amounts', t0, 60)).toMatchObject({ allowed: true, remaining: 40 });
    // The other process has seen none of the ledger and finds its end.
    expect(await other.take('amounts', t0, 41)).toMatchObject({ allowed: false, remaining: 40 });
    expect(await other.take('amounts', t0, 40)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await mine.peek('amounts', t0)).toMatchObject({ allowed: false, remaining: 0 });
    // An hour's window ends on the hour.
    expect((await mine.peek('amounts', t0)).resetAt).toEqual(new Date('2026-03-01T11:00:00Z'));

    // Concurrent requests of many sizes from two processes never grant past the limit.
    if (!raceable()) return;
    const sizes = Array.from({ length: 30 }, (_, i) => 1 + (i % 7));
    const decisions = await Promise.all(sizes.map((n, i) => (i % 2 ? mine : other).take('amounts/race', t0, n)));
    const granted = decisions.flatMap((d, i) => (d.allowed ? [sizes[i]] : []));
    const sum = granted.reduce((a, b) => a + b, 0);
    expect(sum).toBeLessThanOrEqual(100);
    expect(await mine.peek('amounts/race', t0)).toMatchObject({ remaining: 100 - sum });
  });

  it('reads a long window in a few exact reads', async () => {
    if (tally === 'counter') return; // one document, one read
    const busy = new Limit(db, { limit: 1_000, windowSeconds: 60, tally });
    for (let i = 0; i < 300; i++) await busy.take('long', t0);
    const fresh = new Limit(db, { limit: 1_000, windowSeconds: 60, tally });
    const reads: string[] = [];
    const findOne = db.limitEntries.findOne.bind(db.limitEntries);
    const spy = jest.spyOn(db.limitEntries, 'findOne').mockImplementation(((filter: { _id: string }) => {
      reads.push(filter._id);
      return findOne(filter);
    }) as never);
    try {
      expect(await fresh.take('long', t0)).toMatchObject({ allowed: true, remaining: 699 });
    } finally {
      spy.mockRestore();
    }
    // About 2·log2(300) reads, each of one exact _id.
    expect(reads.length).toBeLessThanOrEqual(20);
  });

  it('costs O(1) exact reads and writes per request under contention, and a new window scans nothing', async () => {
    const counted = await connectDatabase(process.env.TEST_MONGODB_URI!, db.db.databaseName, { monitorCommands: true });
    const commands: Array<{ name: string; filter?: unknown }> = [];
    counted.client.on('commandStarted', (e) => {
      if (e.commandName === 'endSessions') return;
      const cmd = e.command as { q?: unknown; filter?: unknown; query?: unknown; deletes?: unknown };
      commands.push({ name: e.commandName, filter: cmd.filter ?? cmd.query ?? cmd.deletes });
    });
    try {
      {
        commands.length = 0;
        const limit = new Limit(counted, { limit: 10, windowSeconds: 60, tally });
        const take = () => limit.take(`round-trips/${tally}`, t0);
        // The counter on FerretDB (not isolated) is counted one request after another.
        const decisions = raceable()
          ? await Promise.all(Array.from({ length: 40 }, take))
          : await Array.from({ length: 40 }).reduce<Promise<LimitDecision[]>>(
              async (all) => [...(await all), await take()],
              Promise.resolve([]),
            );
        expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
        // Before, each of N concurrent requests read the whole run and raced every other: about N²/2 each way.
        expect(commands.length).toBeLessThanOrEqual(2 * 40);
        expect(commands.map((c) => c.name)).not.toContain('delete');
        for (const c of commands.filter((x) => x.name === 'find')) expect(Object.keys(c.filter as object)).toEqual(['_id']);
      }
    } finally {
      await counted.close();
    }
  });

  it('never answers an error from contention', async () => {
    if (!raceable()) return;
    // Two "processes" (each its own memory of the run) and 60 concurrent takes of a limit of 1000.
    const [a, b] = [new Limit(db, { limit: 1_000, windowSeconds: 60, tally }), new Limit(db, { limit: 1_000, windowSeconds: 60, tally })];
    const decisions = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).take('contended', t0)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    expect(await a.peek('contended', t0)).toMatchObject({ remaining: 940 });
  });
});
