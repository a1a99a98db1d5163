import { heardText, LIVE_SAMPLE_RATE, type LiveMessage } from '../shared/interviews/live';
import type { StoredTurn } from '../infra/documents/interviews';
import { liveCutIns } from '../infra/metrics';

/**
 * A reply of the interviewer's: when it began, how much of its audio came, where it was kept, and where the
 * page stopped playing it if the candidate cut in.
 */
export interface Reply {
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

interface ReplyDeps {
  recorder: { interviewer(pcm: Buffer): void; interviewerDone(): void; cutInterviewer(ms: number): void };
  link: { send(message: LiveMessage): void; sendAudio(pcm: Buffer): void };
  /** The open question's turns (operations/live-turns.ts). */
  question: {
    keep(turn: StoredTurn, at: number): Promise<number | null>;
    cut(reply: Reply, ms: number): Promise<string | null>;
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
 * page plays a reply in real time, while the provider streams it faster: most of a reply has often come, and
 * been kept, by the time the candidate cuts in, so a cut applies to the latest reply wherever it stands. After a
 * cut, nothing more of that reply is relayed or recorded, and its turn keeps only the words heard.
 */
export function interviewerReplies(deps: ReplyDeps) {
  const { recorder, link, question, serially, now } = deps;
  let latest: Reply | null = null;
  /** A reply's audio is coming: from its first chunk to the provider's end of the response. */
  let speaking = false;
  /** The question the reply under way was asked for: its turn is that question's, however late its transcript. */
  let askedFor = -1;

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

  return {
    get speaking(): boolean {
      return speaking;
    },
    /** The provider is asked for a reply to question `index`. */
    asked(index: number): void {
      askedFor = index;
    },
    /** A chunk of the interviewer's voice, opening a reply when none is under way: relayed and recorded unless cut. */
    audio(pcm: Buffer): void {
      if (!speaking || !latest) latest = { startedAt: now(), receivedMs: 0, cutMs: null, kept: null, soFar: '' };
      speaking = true;
      latest.receivedMs += (pcm.length / 2 / LIVE_SAMPLE_RATE) * 1000;
      if (latest.cutMs !== null) return;
      recorder.interviewer(pcm);
      link.sendAudio(pcm);
    },
    /** The words so far of the reply under way, captioned as they come; none of a reply the candidate cut into. */
    saying(text: string): void {
      if (speaking && latest) latest.soFar = text;
      if (!(speaking && latest?.cutMs != null)) link.send({ type: 'caption', who: 'interviewer', text, partial: true });
    },
    /** The whole transcript of a reply: kept as far as it was heard, and captioned. */
    said(text: string): void {
      const reply = latest;
      const at = askedFor;
      serially(async () => {
        if (deps.ended()) return;
        const kept = turn(reply, text);
        const seq = await question.keep(kept, at);
        if (reply && seq !== null) reply.kept = { index: at, seq, text };
        link.send({ type: 'caption', who: 'interviewer', text: kept.text });
      });
    },
    /**
     * The conversation ended while a reply was coming (a dropped socket, a reload): its words so far are kept, as
     * far as they were heard, unless its whole transcript was, so the next session knows the question was asked.
     */
    async keepUnfinished(): Promise<void> {
      const reply = latest;
      if (!speaking || !reply || reply.kept || reply.soFar === '') return;
      const seq = await question.keep(turn(reply, reply.soFar), askedFor);
      if (seq !== null) reply.kept = { index: askedFor, seq, text: reply.soFar };
    },
    /** The provider's response is over. */
    done(): void {
      speaking = false;
      recorder.interviewerDone();
    },
    /**
     * The page stopped the latest reply `ms` in, the candidate cutting in: the provider forgets the rest, the
     * recording loses it, and its kept turn and caption keep only the words heard. Nothing, for a reply played
     * whole or cut already.
     */
    cut(ms: number): void {
      const reply = latest;
      if (!reply || reply.cutMs !== null || ms >= reply.receivedMs - WHOLE_MS) return;
      reply.cutMs = ms;
      liveCutIns.inc({ outcome: 'stopped' });
      deps.truncate(ms);
      recorder.cutInterviewer(ms);
      serially(async () => {
        const heard = deps.ended() ? null : await question.cut(reply, ms);
        if (heard !== null) link.send({ type: 'caption', who: 'interviewer', text: heard, cut: true });
      });
    },
  };
}
