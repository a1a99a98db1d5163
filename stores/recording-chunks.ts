import { Binary } from 'mongodb';
import type { Database } from '../infra/database';
import { conversationRecordingId, type RecordingDoc } from '../infra/documents/interviews';
import type { RecordingType } from '../shared/interviews/recordings';

/** A recording's bytes are kept in chunks of this size, `<recording>|<n>` (stores/recordings.ts). */
export const CHUNK_BYTES = 512 * 1024;

export const chunkId = (recordingId: string, n: number) => `${recordingId}|${n}`;

/**
 * A recording written as it is made, a live interview's conversation (`audio/wav`): one per interview under a
 * fixed id, continued by each of its sessions (a reconnect, a reload). Whole chunks are written as they fill
 * and the recording's document follows them, so what is stored is always a readable prefix; the tail, under a
 * chunk, is written when a session ends, and `head` (the WAV header, which names the length) rewritten into
 * chunk 0 then. A crash of the process loses at most the tail.
 */
export async function continuedRecording(db: Database, interviewId: string, index: number, type: RecordingType) {
  const id = conversationRecordingId(interviewId);
  const before = await db.recordings.findOne({ _id: id });
  let chunks = before ? Math.floor(before.size / CHUNK_BYTES) : 0;
  let size = chunks * CHUNK_BYTES;
  // A tail a session left under a chunk's length is taken up again, and its chunk written over once full.
  let tail =
    before && before.size > size
      ? Buffer.from((await db.recordingChunks.findOne({ _id: chunkId(id, chunks) }))!.data.buffer)
      : Buffer.alloc(0);
  const doc = (): RecordingDoc => ({
    _id: id,
    interview_id: interviewId,
    index,
    type,
    size: size + tail.length,
    chunk_bytes: CHUNK_BYTES,
    chunks: chunks + (tail.length > 0 ? 1 : 0),
    created_at: before?.created_at ?? new Date(),
  });
  const put = (n: number, bytes: Buffer) =>
    db.recordingChunks.replaceOne({ _id: chunkId(id, n) }, { data: new Binary(bytes) }, { upsert: true });
  return {
    id,
    /** Bytes stored so far, the tail included. */
    size: () => size + tail.length,
    async append(bytes: Buffer): Promise<void> {
      tail = Buffer.concat([tail, bytes]);
      if (tail.length < CHUNK_BYTES) return;
      while (tail.length >= CHUNK_BYTES) {
        await put(chunks++, tail.subarray(0, CHUNK_BYTES));
        size += CHUNK_BYTES;
        tail = tail.subarray(CHUNK_BYTES);
      }
      await db.recordings.replaceOne({ _id: id }, { ...doc(), size, chunks }, { upsert: true });
    },
    /** Writes the tail and the recording's document, with `head` written over its first bytes. */
    async close(head: Buffer): Promise<RecordingDoc> {
      if (tail.length > 0) await put(chunks, tail);
      const first = chunks === 0 ? tail : Buffer.from((await db.recordingChunks.findOne({ _id: chunkId(id, 0) }))!.data.buffer);
      const rewritten = Buffer.from(first);
      head.copy(rewritten, 0);
      await put(0, rewritten);
      if (chunks === 0) tail = rewritten;
      const written = doc();
      await db.recordings.replaceOne({ _id: id }, written, { upsert: true });
      return written;
    },
  };
}
