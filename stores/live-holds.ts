import type { Database } from '../infra/database';
import { isDuplicateKey } from '../infra/duplicate-key';

/**
 * Which socket holds an interview's conversation, across every API process (docs/live-interviews.md): one
 * conversation per interview, whatever process each socket reached (sticky routing is not assumed). Each socket
 * admitted takes the interview's next hold number `n`, the claim `live-hold/<interview>/<n>` (infra/claims.ts'
 * documents), by one insert of a new `_id`: of two sockets at the same moment exactly one wins a number, on
 * FerretDB as on MongoDB, and the other is taken over at once. The holder of `n` gives way when `n + 1` exists
 * (its process looks every second), and marks its hold ended once its recording is closed; the holder of `n + 1`
 * starts when `n` has ended, or when its lease ran out (a process that died). `live-hold/<interview>` is a hint of
 * the last number taken (last write wins): numbers are taken in order, so the first missing one after it is the
 * next. Every read and write is by exact `_id`; a hold holds ids only.
 */
export const LIVE_HOLD_LEASE_MS = 10_000;
/**
 * How long the hint of an interview's last hold number lives after its last take: far past the longest
 * conversation (20 questions of at most 30 minutes), so the sweep removes it only once every hold it numbered
 * has long ended and been swept (a missing hint numbers from 1 again).
 */
export const LIVE_HOLD_HINT_MS = 86_400_000;
const holdId = (interviewId: string, n: number) => `live-hold/${interviewId}/${n}`;
const hintId = (interviewId: string) => `live-hold/${interviewId}`;

export function liveHoldStore(db: Database) {
  const read = (interviewId: string, n: number) => db.claims.findOne({ _id: holdId(interviewId, n) });
  return {
    /**
     * Takes the interview's next hold for `holder`: its number, or null when another socket took that number at
     * the same moment (this one is taken over before it began).
     */
    async take(interviewId: string, holder: string, now = new Date()): Promise<number | null> {
      let n = Number((await db.claims.findOne({ _id: hintId(interviewId) }))?.holder ?? 0) + 1;
      // The hint may lag (a write lost to a later one): the first missing number after it is the next.
      while (await read(interviewId, n)) n++;
      try {
        await db.claims.insertOne({
          _id: holdId(interviewId, n),
          holder,
          expires_at: new Date(now.getTime() + LIVE_HOLD_LEASE_MS),
          created_at: now,
        });
      } catch (err) {
        if (isDuplicateKey(err)) return null;
        throw err;
      }
      await db.claims.updateOne(
        { _id: hintId(interviewId) },
        { $set: { holder: String(n), expires_at: new Date(now.getTime() + LIVE_HOLD_HINT_MS), created_at: now } },
        { upsert: true },
      );
      return n;
    },
    /** Whether a later socket took the interview's next hold: the holder of `n` gives way. */
    takenOver: async (interviewId: string, n: number): Promise<boolean> => (await read(interviewId, n + 1)) !== null,
    /** Extends the hold while its conversation runs; only its holder writes it. */
    async renew(interviewId: string, n: number, now = new Date()): Promise<void> {
      await db.claims.updateOne({ _id: holdId(interviewId, n) }, { $set: { expires_at: new Date(now.getTime() + LIVE_HOLD_LEASE_MS) } });
    },
    /** The conversation of hold `n` has ended and its recording is closed: the next may begin. */
    async end(interviewId: string, n: number, now = new Date()): Promise<void> {
      await db.claims.updateOne({ _id: holdId(interviewId, n) }, { $set: { expires_at: now } });
    },
    /**
     * Waits until hold `n - 1` has ended (or its lease ran out: its process died), looking every `everyMs`; false
     * when hold `n + 1` was taken meanwhile (this one is taken over before it began).
     */
    async previousEnded(interviewId: string, n: number, everyMs = 50): Promise<boolean> {
      for (;;) {
        const [before, after] = await Promise.all([n > 1 ? read(interviewId, n - 1) : null, read(interviewId, n + 1)]);
        if (after) return false;
        if (!before?.expires_at || before.expires_at <= new Date()) return true;
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    },
  };
}

export type LiveHoldStore = ReturnType<typeof liveHoldStore>;
