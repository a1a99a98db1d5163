import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startDatabase } from '../services';

/**
 * Whether one database's writers can stall another database of the same FerretDB (test/global-setup.ts says
 * why it matters): WRITERS concurrent updates (a client with a pool of POOL connections) and a collection
 * created now and then in database `x`, while database `y` is read every 50 ms for PROBE_SECONDS seconds (not
 * SECONDS, which is bash's own clock).
 *   WRITERS=150 POOL=200 PROBE_SECONDS=20 npx tsx scripts/bench/ferretdb-global-stall.ts
 * On 2026-11-28 with FerretDB 1.24: 150 writers on 200 connections stopped every read of `y` for good (the
 * script ends on its watchdog); 80, 95 or 100 writers, or 150 on the driver's default 100 connections, did
 * not (the worst read of `y` 160 to 210 ms).
 */
void (async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ferret-stall-'));
  const server = await startDatabase({ dataDir: join(dir, 'db'), logDir: dir, useExternal: false });
  const seconds = Number(process.env.PROBE_SECONDS ?? 20);
  const watchdog = setTimeout(
    () => {
      console.log(`STALLED: a read of another database did not answer within ${seconds + 20} s`);
      void server.stop().then(() => process.exit(1));
    },
    (seconds + 20) * 1000,
  );
  const busy = await MongoClient.connect(server.uri, { maxPoolSize: Number(process.env.POOL ?? 200) });
  const probe = await MongoClient.connect(server.uri);
  const x = busy.db('x');
  const y = probe.db('y').collection<{ _id: string }>('probe');
  await y.insertOne({ _id: 'p' });
  let running = true;
  const writers = Array.from({ length: Number(process.env.WRITERS ?? 150) }, async (_, w) => {
    for (let i = 0; running; i++)
      await x.collection<{ _id: string; n: number }>('hot').updateOne({ _id: `h${w}` }, { $set: { n: i } }, { upsert: true });
  });
  const creator = (async () => {
    for (let i = 0; running; i++) await x.collection<{ _id: string }>(`fresh${i}`).insertOne({ _id: 'a' });
  })();
  // Stopped by the watchdog, the writers' commands fail with the server: that is no news.
  for (const p of [...writers, creator]) p.catch(() => undefined);
  const reads: number[] = [];
  for (const until = Date.now() + seconds * 1000; Date.now() < until;) {
    const t = Date.now();
    await y.findOne({ _id: 'p' });
    reads.push(Date.now() - t);
    await new Promise((r) => setTimeout(r, 50));
  }
  running = false;
  await Promise.allSettled([...writers, creator]);
  clearTimeout(watchdog);
  reads.sort((a, b) => a - b);
  console.log(`${reads.length} reads of another database: median ${reads[reads.length >> 1]} ms, worst ${reads.at(-1)} ms`);
  await Promise.all([busy.close(), probe.close()]);
  await server.stop();
})();
