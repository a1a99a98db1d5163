import type { Database } from './database';
import type { Logger } from './logger';
import { sweepRecordings } from './recordings';

/**
 * What runs out, removed once it has: kept Idempotency-Key answers, dashboard sessions and rate-limit
 * windows; and what uploads left behind (infra/recordings.ts, sweepRecordings). MongoDB's TTL indexes remove them too (infra/database.ts); FerretDB 1.x has none, so without this
 * they would stay for good. Each sweep reads every document of these collections on FerretDB (it pushes no
 * range down), which is why it runs every few minutes from the worker, not on a request's way.
 */
export async function purgeExpired(
  db: Database,
  now: Date,
): Promise<Record<'idempotencyKeys' | 'sessions' | 'rateLimits' | 'uploads' | 'recordings', number>> {
  const expired = { expires_at: { $lte: now } };
  const [idempotencyKeys, sessions, rateLimits, left] = await Promise.all([
    db.idempotencyKeys.deleteMany(expired),
    db.sessions.deleteMany(expired),
    db.rateLimits.deleteMany(expired),
    sweepRecordings(db, now),
  ]);
  return {
    idempotencyKeys: idempotencyKeys.deletedCount,
    sessions: sessions.deletedCount,
    rateLimits: rateLimits.deletedCount,
    ...left,
  };
}

/** Sweeps every `everySeconds` until stopped; a sweep that fails is logged, and the next one tries again. */
export function startHousekeeping(db: Database, logger: Logger, everySeconds: number): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = purgeExpired(db, new Date()).then(
      (removed) => {
        if (Object.values(removed).some((n) => n > 0)) logger.info({ removed }, 'expired records removed');
      },
      (err: unknown) => logger.warn({ err }, 'housekeeping sweep failed; the next one tries again'),
    );
  }, everySeconds * 1_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
