import { LIVE_LIMITS, LIVE_SAMPLE_RATE } from '../shared/interviews/live';
import type { Logger } from '../infra/logger';
import type { Stores } from '../stores';

const HEAD_BYTES = 44;
/** Mixed audio is written a second at a time, once neither voice can still land in it. */
const FLUSH_SAMPLES = LIVE_SAMPLE_RATE;
const MAX_FRAME_SAMPLES = LIVE_LIMITS.frameBytes / 2;

/** A WAV header for `dataBytes` of 16-bit mono PCM at 24 kHz. */
export function wavHead(dataBytes: number): Buffer {
  const head = Buffer.alloc(HEAD_BYTES);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + dataBytes, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(LIVE_SAMPLE_RATE, 24);
  head.writeUInt32LE(LIVE_SAMPLE_RATE * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(dataBytes, 40);
  return head;
}

/**
 * The recording of a live conversation, both voices mixed into one track as they were heard: the candidate's
 * frames where they arrived in time, the interviewer's voice from where its response began, each chunk after
 * the last (a provider streams faster than it speaks). It continues the interview's recording where the last
 * session left it (stores/recordings.ts), the time between sessions left out.
 */
export async function conversationRecorder(
  stores: Pick<Stores, 'recordings'>,
  interviewId: string,
  { maxSeconds, nowMs = Date.now }: { maxSeconds: number; nowMs?: () => number },
) {
  const file = await stores.recordings.conversation(interviewId);
  if (file.size() === 0) await file.append(wavHead(0));
  const startSample = (file.size() - HEAD_BYTES) / 2;
  const started = nowMs();
  const at = () => startSample + Math.round(((nowMs() - started) * LIVE_SAMPLE_RATE) / 1000);
  /** No sample is written past this: the interview's whole time, however much audio came. */
  const lastSample = Math.round(maxSeconds * LIVE_SAMPLE_RATE);
  const slack = Math.round((LIVE_LIMITS.recordingSlackMs * LIVE_SAMPLE_RATE) / 1000);
  let base = startSample;
  let mix = new Int32Array(FLUSH_SAMPLES * 4);
  let candidate = base;
  let interviewer = base;
  let speaking = false;
  /** The interviewer's latest reply, where it began and its chunks still in the mix: a cut-in takes its rest out. */
  let reply: { from: number; chunks: Array<{ at: number; pcm: Buffer }> } | null = null;
  let writes: Promise<void> = Promise.resolve();

  function place(pcm: Buffer, from: number): void {
    const n = Math.floor(pcm.length / 2);
    const need = from + n - base;
    if (need > mix.length) {
      const grown = new Int32Array(Math.max(need, mix.length * 2));
      grown.set(mix);
      mix = grown;
    }
    for (let i = 0; i < n; i++) mix[from - base + i] += pcm.readInt16LE(i * 2);
  }

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
    const n = bound - base;
    if (n <= 0 || (!all && n < FLUSH_SAMPLES)) return;
    const out = Buffer.alloc(n * 2);
    for (let i = 0; i < n; i++) out.writeInt16LE(Math.max(-32768, Math.min(32767, mix[i])), i * 2);
    mix = mix.slice(n);
    if (mix.length < FLUSH_SAMPLES) mix = new Int32Array(FLUSH_SAMPLES * 4);
    base = bound;
    if (reply) reply.chunks = reply.chunks.filter((c) => c.at + c.pcm.length / 2 > base);
    writes = writes.then(() => file.append(out));
  }

  return {
    candidate(pcm: Buffer): void {
      const from = Math.max(candidate, at() - Math.floor(pcm.length / 2));
      if (from >= lastSample) return;
      place(pcm, from);
      candidate = from + Math.floor(pcm.length / 2);
      flush(false);
    },
    interviewer(pcm: Buffer): void {
      if (!speaking) {
        interviewer = Math.max(interviewer, at());
        reply = { from: interviewer, chunks: [] };
      }
      speaking = true;
      if (interviewer >= lastSample) return;
      place(pcm, interviewer);
      reply!.chunks.push({ at: interviewer, pcm });
      interviewer += Math.floor(pcm.length / 2);
      flush(false);
    },
    interviewerDone(): void {
      speaking = false;
    },
    /**
     * The candidate cut in `playedMs` into the interviewer's latest reply: the rest of it leaves the mix. What was
     * already written stays (the mix is written up to about the wall clock, and the page reports what it played
     * a socket's delay later: a few tens of milliseconds at most).
     */
    cutInterviewer(playedMs: number): void {
      if (!reply) return;
      const cut = Math.max(base, reply.from + Math.round((playedMs * LIVE_SAMPLE_RATE) / 1000));
      for (const { at: from, pcm } of reply.chunks)
        for (let i = Math.max(0, cut - from); i < pcm.length / 2; i++) mix[from + i - base] -= pcm.readInt16LE(i * 2);
      reply.chunks = [];
      interviewer = Math.min(interviewer, cut);
    },
    /** Writes the rest and the header: the recording as it stands, with its length in seconds. */
    async close(): Promise<{ id: string; size: number; seconds: number }> {
      flush(true);
      await writes;
      const size = file.size();
      await file.close(wavHead(size - HEAD_BYTES));
      return { id: file.id, size, seconds: Math.round(((size - HEAD_BYTES) / 2 / LIVE_SAMPLE_RATE) * 10) / 10 };
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
