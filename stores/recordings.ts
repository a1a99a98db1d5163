import { Readable } from 'node:stream';
import { Binary } from 'mongodb';
import type { Database } from '../infra/database';
import { claim, release } from '../infra/claims';
import { newToken } from '../infra/ids';
import type { InterviewDoc, RecordingDoc } from '../infra/documents/interviews';
import { CHUNK_BYTES, chunkId, continuedRecording } from './recording-chunks';
import {
  byteRange,
  bytesMatch,
  CONVERSATION_INDEX,
  recordingFileName,
  SNIFF_BYTES,
  type RecordingType,
} from '../shared/interviews/recordings';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../shared/errors';

/**
 * Recorded answers in the database, in chunks whose `_id` is `<recording>|<n>`: every read is an exact `_id`
 * read on FerretDB and MongoDB alike (GridFS would read chunks by `files_id`, which FerretDB scans). An upload
 * is streamed: at most one chunk is held in memory, and it stops at the size limit.
 */
export { CHUNK_BYTES };

export const newRecordingId = () => `rec_${newToken(18)}`;

export interface Upload {
  /** The recording's id, when the caller chose it first (to name its upload's claim); else a new one. */
  id?: string;
  interviewId: string;
  index: number;
  type: RecordingType;
  maxBytes: number;
}

/** Stores the body as a recording; its bytes must be the declared type's container and at most `maxBytes`. */
async function storeRecording(db: Database, body: AsyncIterable<Uint8Array>, upload: Upload): Promise<RecordingDoc> {
  const id = upload.id ?? newRecordingId();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let size = 0;
  let chunks = 0;
  let sniffed = false;
  const flush = async (bytes: Buffer) => {
    await db.recordingChunks.insertOne({ _id: chunkId(id, chunks), data: new Binary(bytes) });
    chunks++;
  };
  const tooLarge = () => new PayloadTooLargeError(`${Math.floor(upload.maxBytes / 1_000_000)} MB`);
  try {
    for await (const part of body) {
      size += part.byteLength;
      if (size > upload.maxBytes) {
        // Past the limit nothing more is kept, but the rest is read (up to twice the limit) so the client,
        // still sending, gets its 413 rather than a reset connection.
        if (size > 2 * upload.maxBytes) throw tooLarge();
        continue;
      }
      const buf = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
      pending.push(buf);
      pendingBytes += buf.length;
      if (!sniffed && pendingBytes >= SNIFF_BYTES) {
        if (!bytesMatch(upload.type, Buffer.concat(pending).subarray(0, SNIFF_BYTES))) throw notA(upload.type);
        sniffed = true;
      }
      while (pendingBytes >= CHUNK_BYTES) {
        const all = Buffer.concat(pending);
        await flush(all.subarray(0, CHUNK_BYTES));
        pending = [all.subarray(CHUNK_BYTES)];
        pendingBytes -= CHUNK_BYTES;
      }
    }
    if (size > upload.maxBytes) throw tooLarge();
    if (!sniffed && !bytesMatch(upload.type, Buffer.concat(pending))) throw notA(upload.type);
    if (pendingBytes > 0) await flush(Buffer.concat(pending));
    const recording: RecordingDoc = {
      _id: id,
      interview_id: upload.interviewId,
      index: upload.index,
      type: upload.type,
      size,
      chunk_bytes: CHUNK_BYTES,
      chunks,
      created_at: new Date(),
    };
    await db.recordings.insertOne(recording);
    return recording;
  } catch (err) {
    await removeChunks(db, id, chunks);
    throw err;
  }
}

const notA = (type: RecordingType) =>
  new UnsupportedMediaTypeError(`The file is not ${type}: its first bytes are not that kind of recording.`);

/** Removes a recording that no answer took (another tab's upload won, or the answer came too late). */
async function removeRecording(db: Database, recording: RecordingDoc): Promise<void> {
  await removeChunks(db, recording._id, recording.chunks);
  await db.recordings.deleteOne({ _id: recording._id });
}

async function removeChunks(db: Database, id: string, chunks: number): Promise<void> {
  await Promise.all(Array.from({ length: chunks }, (_, n) => db.recordingChunks.deleteOne({ _id: chunkId(id, n) }).catch(() => undefined)));
}

/** The claim an upload holds while its body streams in: one upload per question at a time, across processes. */
export const uploadKey = (interviewId: string, index: number) => `upload/${interviewId}/${index}`;
/** How long an upload may take before its claim lapses, and a sweep may remove what it left. */
export const UPLOAD_LEASE_MS = 15 * 60_000;
/** A recording younger than this may still be on its way into an answer; the sweep leaves it alone. */
const UNREFERENCED_GRACE_MS = 60 * 60_000;

/**
 * Removes what uploads left behind: the chunks of an upload whose process died mid-way (its claim lapsed
 * with no recording written), and recordings no answer references (another tab's answer won, or the
 * process died before the answer was saved). A recording found referenced is marked so, and not read again.
 * Reads the claims and the recordings' small documents, never the chunks themselves but by exact `_id`.
 */
async function sweepRecordings(
  db: Database,
  now: Date,
  interviewOf: (id: string) => Promise<InterviewDoc | null>,
): Promise<{ uploads: number; recordings: number }> {
  let uploads = 0;
  let recordings = 0;
  const lapsed = await db.claims.find({ _id: { $regex: '^upload/' }, expires_at: { $lte: now } }).toArray();
  for (const c of lapsed) {
    const written = await db.recordings.findOne({ _id: c.holder });
    if (!written) await removeChunksFrom(db, c.holder);
    await db.claims.deleteOne({ _id: c._id, holder: c.holder });
    uploads++;
  }
  const unchecked = await db.recordings
    .find({ kept: { $ne: true }, created_at: { $lte: new Date(now.getTime() - UNREFERENCED_GRACE_MS) } })
    .toArray();
  for (const r of unchecked) {
    const interview = await interviewOf(r.interview_id);
    if ((interview?.answers ?? []).some((a) => a.recording?.id === r._id) || interview?.conversation_recording?.id === r._id) {
      await db.recordings.updateOne({ _id: r._id }, { $set: { kept: true } });
    } else {
      await removeRecording(db, r);
      recordings++;
    }
  }
  return { uploads, recordings };
}

/** Removes a recording's chunks when its count is unknown: by exact `_id`, until one is missing. */
async function removeChunksFrom(db: Database, id: string): Promise<void> {
  for (let n = 0; (await db.recordingChunks.deleteOne({ _id: chunkId(id, n) })).deletedCount === 1; n++);
}

/** The bytes `start` to `end` (inclusive) of a recording, chunk by chunk: only the chunks they lie in are read. */
async function* recordingBytes(db: Database, recording: RecordingDoc, start: number, end: number): AsyncGenerator<Buffer> {
  for (let n = Math.floor(start / recording.chunk_bytes); n * recording.chunk_bytes <= end; n++) {
    const chunk = await db.recordingChunks.findOne({ _id: chunkId(recording._id, n) });
    if (!chunk) throw new Error(`recording ${recording._id} lacks chunk ${n}`);
    const offset = n * recording.chunk_bytes;
    const bytes = Buffer.from(chunk.data.buffer);
    yield bytes.subarray(Math.max(0, start - offset), Math.min(bytes.length, end - offset + 1));
  }
}

/** A recording as an HTTP response: all of it, or the one byte range asked for (206), or 416. */
export interface RecordingResponse {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  body: Readable | null;
}

/** Both the API's download and the dashboard's player answer with this, so a browser can seek while playing. */
function recordingResponse(db: Database, recording: RecordingDoc, rangeHeader: string | undefined, fileName: string): RecordingResponse {
  const range = recording.size === 0 ? null : byteRange(rangeHeader, recording.size);
  // A candidate's upload, served from our origin: saved rather than shown when opened, never sniffed into
  // another type, and sandboxed should a browser render it anyway. A media element still plays it.
  const common = {
    'Accept-Ranges': 'bytes',
    'Content-Type': recording.type,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Disposition': `attachment; filename="${fileName}"`,
    'Content-Security-Policy': 'sandbox',
  };
  if (range === 'unsatisfiable') return { status: 416, headers: { ...common, 'Content-Range': `bytes */${recording.size}` }, body: null };
  const { start, end } = range ?? { start: 0, end: recording.size - 1 };
  return {
    status: range ? 206 : 200,
    headers: {
      ...common,
      'Content-Length': String(end - start + 1),
      ...(range ? { 'Content-Range': `bytes ${start}-${end}/${recording.size}` } : {}),
    },
    body: Readable.from(recordingBytes(db, recording, start, end)),
  };
}

/**
 * Recorded answers (infra/documents/interviews.ts, RecordingDoc): an upload, streamed into chunks under its
 * claim; a download, whole or by byte range; what an erasure or a sweep removes. `interviewOf` reads an
 * interview (stores/interviews.ts), for the sweep's check that an answer took the recording.
 */
export function recordingStore(db: Database, { interviewOf }: { interviewOf(id: string): Promise<InterviewDoc | null> }) {
  return {
    newId: newRecordingId,
    get: (id: string) => db.recordings.findOne({ _id: id }),
    /** Stores the body as a recording; its bytes must be the declared type's container and at most `maxBytes`. */
    store: (body: AsyncIterable<Uint8Array>, upload: Upload) => storeRecording(db, body, upload),
    remove: (recording: RecordingDoc) => removeRecording(db, recording),
    /** Removes the recording with this id, if there is one: 1 when there was. */
    async removeById(id: string): Promise<number> {
      const recording = await db.recordings.findOne({ _id: id });
      if (recording) await removeRecording(db, recording);
      // A conversation's first chunks are written before its document.
      else await removeChunksFrom(db, id);
      return recording ? 1 : 0;
    },
    /** The whole recording's bytes, chunk by chunk (a transcription's upload). */
    bytes: (recording: RecordingDoc) => recordingBytes(db, recording, 0, recording.size - 1),
    /**
     * Claims the upload of the answer to question `index` for the recording `id` until UPLOAD_LEASE_MS from now:
     * false when another upload of that answer holds it (another tab), whichever process it reached.
     */
    async claimUpload(interviewId: string, index: number, id: string, now: Date): Promise<boolean> {
      return (await claim(db, uploadKey(interviewId, index), id, { now, expiresAt: new Date(now.getTime() + UPLOAD_LEASE_MS) })) === id;
    },
    releaseUpload: (interviewId: string, index: number, id: string) => release(db, uploadKey(interviewId, index), id),
    /**
     * The download of an interview's answer to question `of.answer` (as the path names it), or of its live
     * conversation; null when it has no such recording.
     */
    async download(
      interview: InterviewDoc,
      of: { answer: string } | 'conversation',
      rangeHeader: string | undefined,
    ): Promise<RecordingResponse | null> {
      const id =
        of === 'conversation'
          ? interview.conversation_recording?.id
          : (interview.answers ?? []).find((a) => String(a.index) === of.answer)?.recording?.id;
      const recording = id ? await db.recordings.findOne({ _id: id }) : null;
      if (!recording) return null;
      return recordingResponse(db, recording, rangeHeader, recordingFileName(recording.index, recording.type));
    },
    sweep: (now: Date) => sweepRecordings(db, now, interviewOf),
    /** A live interview's recording of its conversation, continued where its last session left it. */
    conversation: (interviewId: string) => continuedRecording(db, interviewId, CONVERSATION_INDEX, 'audio/wav'),
  };
}

export type RecordingStore = ReturnType<typeof recordingStore>;
