import type { Logger } from '../infra/logger';
import { expiresAtOf } from '../infra/documents/interviews';
import { linkExpired } from '../shared/interviews/deadlines';
import type { Stores } from '../stores';
import type { Conversation } from './live-conversation';

/** How often the conversations of a process look at their interviews and holds. */
export const LIVE_WATCH_MS = 1_000;
/** Every this many looks a conversation renews its hold (stores/live-holds.ts: a lease of 10 s). */
const HOLD_RENEWALS_EVERY = 3;
/** Every this many looks the workspace slots held are renewed (stores/live-slots.ts: a lease of 3 minutes). */
const SLOT_RENEWALS_EVERY = 60;

/**
 * What ends a conversation from outside it (docs/live-interviews.md): every second, each conversation this process
 * holds reads its interview and its next hold by exact `_id`. An erasure or a deadline passed ends it `closed`, a
 * switch to writing in another tab `switched_to_text`, a later socket's hold (in any process) `taken_over`: within
 * LIVE_WATCH_MS and the time its end takes, and nothing the browser sends after reaches the provider. It renews
 * the holds and the workspace slots while any are held, and stops when none are: a timer left running kept these
 * operations, every store and the settings they were built with alive after the service was stopped.
 */
export function liveWatch({
  stores,
  logger,
  held,
  slots,
}: {
  stores: Pick<Stores, 'interviews' | 'liveHolds' | 'liveSlots'>;
  logger: Logger;
  held: ReadonlyMap<string, { conversation: Conversation; hold: number }>;
  slots: ReadonlyMap<string, { key: string }>;
}) {
  let timer: NodeJS.Timeout | null = null;
  let looks = 0;
  let looking = false;

  async function look(interviewId: string, { conversation, hold }: { conversation: Conversation; hold: number }, now: Date) {
    const [interview, takenOver] = await Promise.all([stores.interviews.get(interviewId), stores.liveHolds.takenOver(interviewId, hold)]);
    if (takenOver) return conversation.end('taken_over');
    if (!interview || interview.erased_at) return conversation.end('closed');
    if (interview.live_switched_at) return conversation.end('switched_to_text');
    if (linkExpired(interview.status, expiresAtOf(interview), now)) return conversation.end('closed');
    if (looks % HOLD_RENEWALS_EVERY === 0) await stores.liveHolds.renew(interviewId, hold, now);
  }

  async function lookAll(): Promise<void> {
    if (looking) return;
    looking = true;
    looks++;
    const now = new Date();
    try {
      await Promise.all(
        [...held].map(([id, h]) => look(id, h, now).catch((err: unknown) => logger.warn({ err }, 'live conversation not looked at'))),
      );
      if (looks % SLOT_RENEWALS_EVERY === 0)
        for (const [interviewId, { key }] of slots)
          await stores.liveSlots.renew(key, interviewId).catch((err: unknown) => logger.warn({ err }, 'live slot not renewed'));
    } finally {
      looking = false;
    }
  }

  return {
    /** A conversation or a slot came or went: the watch runs while any is held. */
    changed(): void {
      if (held.size === 0 && slots.size === 0 && timer) {
        clearInterval(timer);
        timer = null;
      } else if ((held.size > 0 || slots.size > 0) && !timer) {
        timer = setInterval(() => void lookAll(), LIVE_WATCH_MS);
        timer.unref();
      }
    },
  };
}
