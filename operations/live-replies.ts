import { heardText, LIVE_SAMPLE_RATE } from '../shared/interviews/live';
import type { StoredTurn } from '../infra/documents/interviews';

/**
 * A reply of the interviewer's: when it began, how much of its audio came, where it was kept, and where the
 * page stopped playing it if the candidate cut in.
 */
export interface Reply {
  startedAt: Date;
  receivedMs: number;
  cutMs: number | null;
  kept: { index: number; seq: number; text: string } | null;
}

/**
 * A cut within this much of a reply's end is a reply heard whole: the page's clock and the audio's length
 * differ by a frame or so.
 */
const WHOLE_MS = 40;

/**
 * The interviewer's replies as the candidate heard them (docs/live-interviews.md#cutting-in). The page plays
 * a reply in real time, while the provider streams it faster: most of a reply has often come, and been kept,
 * by the time the candidate cuts in, so a cut applies to the latest reply wherever it stands. After a cut,
 * nothing more of that reply is played or recorded, and its turn keeps only the words heard.
 */
export function interviewerReplies() {
  let latest: Reply | null = null;
  return {
    /** A chunk of the interviewer's voice, opening a reply when `opens`: whether it is still to be played. */
    audio(pcm: Buffer, opens: boolean, now: Date): boolean {
      if (opens || !latest) latest = { startedAt: now, receivedMs: 0, cutMs: null, kept: null };
      latest.receivedMs += (pcm.length / 2 / LIVE_SAMPLE_RATE) * 1000;
      return latest.cutMs === null;
    },
    /** The reply under way or last ended, if any. */
    latest: (): Reply | null => latest,
    /** The interviewer's turn of `reply` as it was heard: all of `text`, or its words up to the cut. */
    turn(reply: Reply | null, text: string, now: Date): StoredTurn {
      if (!reply || reply.cutMs === null) return { who: 'interviewer', text, started_at: reply?.startedAt ?? now, ended_at: now };
      return {
        who: 'interviewer',
        text: heardText(text, reply.cutMs, reply.receivedMs),
        started_at: reply.startedAt,
        ended_at: new Date(reply.startedAt.getTime() + reply.cutMs),
      };
    },
    /** The page stopped the latest reply `playedMs` in: that reply, or null when there is nothing left to cut. */
    cut(playedMs: number): Reply | null {
      if (!latest || latest.cutMs !== null || playedMs >= latest.receivedMs - WHOLE_MS) return null;
      latest.cutMs = playedMs;
      return latest;
    },
  };
}
