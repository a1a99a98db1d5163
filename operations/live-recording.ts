import { LIVE_LIMITS, LIVE_SAMPLE_RATE } from '../shared/interviews/live';
import type { Logger } from '../infra/logger';
import { PcmMix, WAV_HEAD_BYTES, wavHead } from '../infra/pcm-mix';
import type { Stores } from '../stores';

/** Mixed audio is written a second at a time, once neither voice can still land in it. */
const FLUSH_SAMPLES = LIVE_SAMPLE_RATE;
const MAX_FRAME_SAMPLES = LIVE_LIMITS.frameBytes / 2;
/** The interviewer's replies whose start is remembered for a cut-in: the latest, and a few queued before it. */
const REPLIES_KEPT = 8;

/**
 * The recording of a live conversation, both voices mixed into one track (infra/pcm-mix.ts) as they were heard:
 * the candidate's frames where they arrived in time, each of the interviewer's replies from where it began or
 * after the one before it (a provider streams faster than it speaks, and the page plays them in turn). It
 * continues the interview's recording where the last session left it (stores/recordings.ts), the time between
 * sessions left out.
 */
export async function conversationRecorder(
  stores: Pick<Stores, 'recordings'>,
  interviewId: string,
  { maxSeconds, nowMs = Date.now }: { maxSeconds: number; nowMs?: () => number },
) {
  const file = await stores.recordings.conversation(interviewId);
  if (file.size() === 0) await file.append(wavHead(0, LIVE_SAMPLE_RATE));
  const startSample = (file.size() - WAV_HEAD_BYTES) / 2;
  const started = nowMs();
  const at = () => startSample + Math.round(((nowMs() - started) * LIVE_SAMPLE_RATE) / 1000);
  /** No sample is written past this: the interview's whole time, however much audio came. */
  const lastSample = Math.round(maxSeconds * LIVE_SAMPLE_RATE);
  const slack = Math.round((LIVE_LIMITS.recordingSlackMs * LIVE_SAMPLE_RATE) / 1000);
  const mix = new PcmMix(startSample, FLUSH_SAMPLES);
  let candidate = startSample;
  let interviewer = startSample;
  let speaking = false;
  /** Where each recent reply began, by its number: a cut-in takes out the rest of one and all after it. */
  const replies: Array<{ number: number; from: number }> = [];
  /** The interviewer's chunks still in the mix. */
  let chunks: Array<{ at: number; pcm: Buffer }> = [];
  let writes: Promise<void> = Promise.resolve();

  /**
   * Writes what neither voice can still land in (all of it at the end, but never past the wall clock and its
   * slack: audio that came faster than it can be spoken, or a provider's voice streamed ahead of a close, is not
   * a longer conversation), and never past `lastSample`.
   */
  function flush(all: boolean): void {
    const bound = Math.min(
      lastSample,
      all
        ? Math.min(Math.max(candidate, interviewer), at() + slack)
        : Math.min(at() + slack, Math.max(candidate, at() - MAX_FRAME_SAMPLES), speaking ? interviewer : Math.max(interviewer, at())),
    );
    const out = mix.drain(bound, all ? 1 : FLUSH_SAMPLES);
    if (!out) return;
    chunks = chunks.filter((c) => c.at + c.pcm.length / 2 > mix.drained);
    writes = writes.then(() => file.append(out));
  }

  return {
    candidate(pcm: Buffer): void {
      const from = Math.max(candidate, at() - Math.floor(pcm.length / 2));
      if (from >= lastSample) return;
      mix.add(pcm, from);
      candidate = from + Math.floor(pcm.length / 2);
      flush(false);
    },
    /** A chunk of reply `reply`: a new reply begins now, or where the one before it ends. */
    interviewer(pcm: Buffer, reply: number): void {
      if (!speaking || replies[replies.length - 1]?.number !== reply) {
        interviewer = Math.max(interviewer, at());
        replies.push({ number: reply, from: interviewer });
        if (replies.length > REPLIES_KEPT) replies.shift();
      }
      speaking = true;
      if (interviewer >= lastSample) return;
      mix.add(pcm, interviewer);
      chunks.push({ at: interviewer, pcm });
      interviewer += Math.floor(pcm.length / 2);
      flush(false);
    },
    interviewerDone(): void {
      speaking = false;
    },
    /**
     * The candidate cut in `playedMs` into reply `reply`: its rest, and every reply queued after it, leave the
     * mix. What was already written stays (the mix is written up to about the wall clock, and the page reports
     * what it played a socket's delay later: a few tens of milliseconds at most).
     */
    cutInterviewer(reply: number, playedMs: number): void {
      const cutFrom = replies.find((r) => r.number === reply);
      if (!cutFrom) return;
      const cut = Math.max(mix.drained, cutFrom.from + Math.round((playedMs * LIVE_SAMPLE_RATE) / 1000));
      for (const c of chunks) if (c.at + c.pcm.length / 2 > cut) mix.add(c.pcm, c.at, -1, Math.max(0, cut - c.at));
      chunks = chunks
        .filter((c) => c.at < cut)
        .map((c) => (c.at + c.pcm.length / 2 > cut ? { at: c.at, pcm: c.pcm.subarray(0, (cut - c.at) * 2) } : c));
      interviewer = Math.min(interviewer, cut);
    },
    /** Writes the rest and the header: the recording as it stands, with its length in seconds. */
    async close(): Promise<{ id: string; size: number; seconds: number }> {
      flush(true);
      await writes;
      const size = file.size();
      await file.close(wavHead(size - WAV_HEAD_BYTES, LIVE_SAMPLE_RATE));
      return { id: file.id, size, seconds: Math.round(((size - WAV_HEAD_BYTES) / 2 / LIVE_SAMPLE_RATE) * 10) / 10 };
    },
  };
}

export type ConversationRecorder = Awaited<ReturnType<typeof conversationRecorder>>;

/**
 * The recording of one session of a conversation, closed once (at the session's end, or before the interview
 * finishes, so the finished interview's events show it) and kept on the interview; an erased candidate's is
 * removed. `closed` settles once it is, and the next session continues it from there.
 */
export async function keptRecording(
  stores: Pick<Stores, 'recordings' | 'interviews'>,
  interviewId: string,
  logger: Logger,
  maxSeconds: number,
) {
  const recorder = await conversationRecorder(stores, interviewId, { maxSeconds });
  let closing: Promise<void> | null = null;
  let settle: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (settle = resolve));
  return {
    candidate: recorder.candidate,
    interviewer: recorder.interviewer,
    interviewerDone: recorder.interviewerDone,
    cutInterviewer: recorder.cutInterviewer,
    closed,
    close: (): Promise<void> =>
      (closing ??= (async () => {
        const recording = await recorder.close();
        if (!(await stores.interviews.keepConversationRecording(interviewId, recording))) await stores.recordings.removeById(recording.id);
      })()
        .catch((err: unknown) => logger.error({ err, interviewId }, 'live interview: the recording was not kept'))
        .finally(settle)),
  };
}
