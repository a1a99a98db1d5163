import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startDatabase } from '../services';

/**
 * Which shapes of concurrent updates FerretDB answers (infra/duplicate-key.ts says why it matters):
 *   VARIANT=unordered|ordered|disjoint|chunk10|single|insert PAR=1,2,4,8 npx tsx scripts/bench/ferretdb-bulk-updates.ts
 * Each line: how many writers at once, `ok` or `HUNG 20 s`, and the time. On 2026-11-25 with FerretDB 1.24:
 * unordered and ordered bulks of 50 hung at 4 writers, disjoint ones at 8, bulks of 10 at 32; single updates
 * and inserts answered at 32.
 */
void (async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ferret-'));
  const db = await startDatabase({ dataDir: join(dir, 'db'), logDir: dir, useExternal: false });
  const client = await MongoClient.connect(db.uri);
  const c = client.db('x').collection<{ _id: string; ids?: string[] }>('keys');
  await c.insertMany(Array.from({ length: 75 }, (_, i) => ({ _id: `k${i}`, ids: ['a'] })));
  const variant = process.env.VARIANT ?? 'unordered';
  for (const parallel of (process.env.PAR ?? '1,2,4,8').split(',').map(Number)) {
    const t = Date.now();
    const ops = (j: number) =>
      Array.from({ length: 50 }, (_, i) => ({
        updateOne: {
          filter: { _id: variant === 'disjoint' ? `d${j}-${i}` : `k${(i + j * 7) % 75}` },
          update: { $addToSet: { ids: `r${parallel}-${j}` } },
          upsert: variant === 'disjoint',
        },
      }));
    const run = async (j: number) => {
      if (variant === 'insert')
        return c.insertMany(
          Array.from({ length: 50 }, (_, i) => ({ _id: `n${parallel}-${j}-${i}`, ids: ['a'] })),
          { ordered: false },
        );
      if (variant === 'ordered') return c.bulkWrite(ops(j), { ordered: true });
      if (variant === 'single') return Promise.all(ops(j).map((o) => c.updateOne(o.updateOne.filter, o.updateOne.update)));
      if (variant === 'chunk10') {
        const all = ops(j);
        for (let k = 0; k < all.length; k += 10) await c.bulkWrite(all.slice(k, k + 10), { ordered: false });
        return;
      }
      return c.bulkWrite(ops(j), { ordered: false });
    };
    const done = await Promise.race([
      Promise.all(Array.from({ length: parallel }, (_, j) => run(j))).then(() => 'ok'),
      new Promise((r) => setTimeout(() => r('HUNG 20 s'), 20_000)),
    ]);
    console.log(parallel, done, Date.now() - t, 'ms');
    if (done !== 'ok') break;
  }
  await client.close(true);
  await db.stop();
  process.exit(0);
})();
