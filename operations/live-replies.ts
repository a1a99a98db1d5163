import { heardText, LIVE_SAMPLE_RATE, type LiveMessage } from '../shared/interviews/live';
import type { StoredTurn } from '../infra/documents/interviews';
import { liveCutIns } from '../infra/metrics';

/**
 * A reply of the interviewer's: its number (ConversationState's), the question it was asked for, when it began,
 * how much of its audio came, where it was kept, and where the page stopped playing it if the candidate cut in.
 */
export interface Reply {
  number: number;
  index: number;
  startedAt: Date;
  receivedMs: number;
  cutMs: number | null;
  kept: { index: number; seq: number; text: string } | null;
  /** Its words so far, as the provider's transcript deltas came. */
  soFar: string;
}

/**
 * A cut within this much of a reply's end is a reply heard whole: the page's clock and the audio's length
 * differ by a frame or so.
 */
const WHOLE_MS = 40;
/** Replies a `played` may still name: the latest and a few queued before it in the page. */
const REPLIES_KEPT = 8;

interface ReplyDeps {
  recorder: { interviewer(pcm: Buffer, reply: number): void; interviewerDone(): void; cutInterviewer(reply: number, ms: number): void };
  link: { send(message: LiveMessage): void; sendAudio(pcm: Buffer): void };
  /** The open question's turns (operations/live-turns.ts). */
  question: {
    keep(turn: StoredTurn, at: number): Promise<number | null>;
    cut(reply: Reply, ms: number): Promise<string | null>;
    revise(reply: Reply, text: string): Promise<void>;
  };
  /** Asks the provider's session to keep the latest reply only `ms` in. */
  truncate(ms: number): void;
  /** Runs a step after the conversation's others (operations/live-conversation.ts). */
  serially(step: () => Promise<void>): void;
  ended(): boolean;
  now(): Date;
}

/**
 * The interviewer's replies as the candidate heard them (docs/live-interviews.md#cutting-in): relayed and
 * recorded as they come, captioned as they are said, each kept as a turn of the question it was asked for. The
 * page plays replies in turn and in real time, while the provider streams them faster: most of a reply has
 * often come, and been kept, by the time the candidate cuts in, and the next may be queued behind it. A cut
 * names the reply the page was playing: it keeps the words heard of it, and none of any reply after it; nothing
 * more of them is relayed or recorded.
 */
export function interviewerReplies(deps: ReplyDeps) {
  const { recorder, link, question, serially, now } = deps;
  /** The recent replies, oldest first; the last is the latest. */
  const recent: Reply[] = [];
  /** The reply asked for last: its number and question. Its audio opens it. */
  let asked = { number: 0, index: -1 };
  /** Replies up to this number that were asked before a cut and had no audio yet: cut whole when it comes. */
  let cutThrough = 0;
  /** A reply's audio is coming: from its first chunk to the provider's end of the response. */
  let speaking = false;
  const latest = (): Reply | null => recent[recent.length - 1] ?? null;

  /** The interviewer's turn of `reply` as it was heard: all of `text`, or its words up to the cut. */
  function turn(reply: Reply | null, text: string): StoredTurn {
    if (!reply || reply.cutMs === null) return { who: 'interviewer', text, started_at: reply?.startedAt ?? now(), ended_at: now() };
    return {
      who: 'interviewer',
      text: heardText(text, reply.cutMs, reply.receivedMs),
      started_at: reply.startedAt,
      ended_at: new Date(reply.startedAt.getTime() + reply.cutMs),
    };
  }

  /** Keeps `reply`'s turn with `text`, or, kept already (as far as it had come when its question closed), its words. */
  async function keep(reply: Reply | null, text: string): Promise<string> {
    const kept = turn(reply, text);
    if (reply?.kept) await question.revise(reply, kept.text);
    else {
      const at = reply?.index ?? asked.index;
      const seq = await question.keep(kept, at);
      if (reply && seq !== null) reply.kept = { index: at, seq, text };
    }
    return kept.text;
  }

  /** Cuts `reply` `ms` in: its turn, its caption and the recording keep what was heard. */
  function cutOne(reply: Reply, ms: number): void {
    reply.cutMs = ms;
    serially(async () => {
      const heard = deps.ended() ? null : await question.cut(reply, ms);
      if (heard !== null) link.send({ type: 'caption', who: 'interviewer', text: heard, cut: true, reply: reply.number });
    });
  }

  return {
    get speaking(): boolean {
      return speaking;
    },
    /** Reply `number` is asked of the provider for question `index`. */
    asked(number: number, index: number): void {
      asked = { number, index };
    },
    /** A chunk of the interviewer's voice, opening the reply asked for when it is new: relayed and recorded unless cut. */
    audio(pcm: Buffer): void {
      let reply = latest();
      if (!reply || reply.number !== asked.number) {
        reply = { ...asked, startedAt: now(), receivedMs: 0, cutMs: asked.number <= cutThrough ? 0 : null, kept: null, soFar: '' };
        recent.push(reply);
        if (recent.length > REPLIES_KEPT) recent.shift();
      }
      speaking = true;
      reply.receivedMs += (pcm.length / 2 / LIVE_SAMPLE_RATE) * 1000;
      if (reply.cutMs !== null) return;
      recorder.interviewer(pcm, reply.number);
      link.sendAudio(pcm);
    },
    /** The words so far of the reply under way, captioned as they come; none of a reply the candidate cut into. */
    saying(text: string): void {
      const reply = speaking ? latest() : null;
      if (reply) reply.soFar = text;
      if (reply?.cutMs == null)
        link.send({ type: 'caption', who: 'interviewer', text, partial: true, reply: reply?.number ?? asked.number });
    },
    /** The whole transcript of a reply: kept as far as it was heard, and captioned. */
    said(text: string): void {
      const reply = latest();
      serially(async () => {
        if (!deps.ended())
          link.send({ type: 'caption', who: 'interviewer', text: await keep(reply, text), reply: reply?.number ?? asked.number });
      });
    },
    /**
     * The reply under way is kept as far as it came (its words so far), unless its whole transcript was: the
     * conversation ended meanwhile (a dropped socket, a reload: the next session knows the question was asked),
     * or its question closed (the saved answer holds the reply; its whole transcript, when it comes, revises it).
     */
    async keepUnfinished(): Promise<void> {
      const reply = latest();
      if (!speaking || !reply || reply.kept || reply.soFar === '') return;
      await keep(reply, reply.soFar);
    },
    /** The provider's response is over. */
    done(): void {
      speaking = false;
      recorder.interviewerDone();
    },
    /**
     * The page stopped reply `number` (the latest without) `ms` in, the candidate cutting in: the provider forgets
     * the rest of the latest, the recording loses the rest, and the kept turns and captions keep only the words
     * heard; every reply after it through `through` (the latest the page knew of), come or still to come, is cut
     * whole. Nothing, for a reply played whole with none after it, or cut already.
     */
    cut(ms: number, number?: number, through = number): void {
      const reply = number === undefined ? latest() : recent.find((r) => r.number === number);
      if (!reply || reply.cutMs !== null) return;
      const last = Math.min(asked.number, Math.max(through ?? reply.number, reply.number));
      const after = recent.filter((r) => r.number > reply.number && r.number <= last && r.cutMs === null);
      const whole = ms >= reply.receivedMs - WHOLE_MS;
      if (whole && after.length === 0 && last === reply.number) return;
      liveCutIns.inc({ outcome: 'stopped' });
      cutThrough = Math.max(cutThrough, last);
      // The provider forgets what was not heard of its latest reply; a reply asked since the page last heard of
      // one goes on (a cut there would cancel a question the page is about to play).
      if (last === asked.number) deps.truncate(reply === latest() ? ms : 0);
      recorder.cutInterviewer(reply.number, ms);
      if (!whole) cutOne(reply, ms);
      for (const later of after) cutOne(later, 0);
    },
  };
}
