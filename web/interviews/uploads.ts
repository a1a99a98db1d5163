import type { Context } from 'koa';
import type { Config } from '../../infra/config';
import type { InterviewDoc, RecordingDoc } from '../../infra/documents/interviews';
import type { RecordingStore } from '../../stores/recordings';
import {
  ConflictError,
  PayloadTooLargeError,
  RequestTimeoutError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
} from '../../shared/errors';
import { UPLOAD_TYPES, recordingType, type RecordingType } from '../../shared/interviews/recordings';

/**
 * An upload, guarded before its body is read: one per question at a time (a second is a 409, whichever
 * process it reaches), at most MAX_CONCURRENT_UPLOADS in this process and MAX_CONCURRENT_UPLOADS_PER_WORKSPACE
 * of them for one workspace (503 with Retry-After), and within what is left of the interview's byte quota.
 * The claim names the recording, so a sweep can remove the chunks of an upload whose process died
 * (stores/recordings.ts). Together with `paced` below, slow bodies cannot hold every slot: one workspace
 * holds at most its share, and a body that trickles is cut.
 */
export function uploadGuard({ recordings, config, now }: { recordings: RecordingStore; config: Config; now: () => Date }) {
  let uploading = 0;
  const byWorkspace = new Map<string, number>();
  return async function guardedUpload<T>(
    interview: InterviewDoc,
    index: number,
    store: (id: string, maxBytes: number) => Promise<T>,
  ): Promise<T> {
    const workspace = interview.workspace_id;
    if (uploading >= config.MAX_CONCURRENT_UPLOADS) throw new ServiceUnavailableError('uploads');
    if ((byWorkspace.get(workspace) ?? 0) >= config.MAX_CONCURRENT_UPLOADS_PER_WORKSPACE) throw new ServiceUnavailableError('uploads');
    const used = (interview.answers ?? []).reduce((sum, a) => sum + (a.recording?.size ?? 0), 0);
    const left = config.RECORDING_QUOTA_BYTES - used;
    if (left <= 0) throw new PayloadTooLargeError('the interview quota', 'interview');
    const id = recordings.newId();
    if (!(await recordings.claimUpload(interview._id, index, id, now()))) {
      throw new ConflictError('This answer is being uploaded already. Wait for that upload to finish.');
    }
    uploading++;
    byWorkspace.set(workspace, (byWorkspace.get(workspace) ?? 0) + 1);
    try {
      return await store(id, Math.min(config.RECORDING_MAX_BYTES, left));
    } catch (err) {
      // Over what is left of the quota, though under the one recording's limit: the quota is what refused it.
      if (err instanceof PayloadTooLargeError && left < config.RECORDING_MAX_BYTES)
        throw new PayloadTooLargeError('the interview quota', 'interview');
      throw err;
    } finally {
      uploading--;
      const held = (byWorkspace.get(workspace) ?? 1) - 1;
      if (held > 0) byWorkspace.set(workspace, held);
      else byWorkspace.delete(workspace);
      await recordings.releaseUpload(interview._id, index, id);
    }
  };
}

/** A recording's type from its Content-Type, refused (415, 413) before its body is read when it is none of ours or too long. */
export function recordingOf(ctx: Context, config: Pick<Config, 'RECORDING_MAX_BYTES'>): RecordingType {
  const type = recordingType(ctx.get('Content-Type'));
  if (!type) throw new UnsupportedMediaTypeError(`A recording is one of ${UPLOAD_TYPES.join(', ')}.`);
  if (Number(ctx.get('Content-Length')) > config.RECORDING_MAX_BYTES) throw new PayloadTooLargeError('the recording limit');
  return type;
}

/** The request's body stored as the recording of question `index`, guarded (above) and paced (below). */
export function recordingReceiver(deps: { recordings: RecordingStore; config: Config; now: () => Date }) {
  const guardedUpload = uploadGuard(deps);
  const { recordings, config } = deps;
  return (ctx: Context, interview: InterviewDoc, index: number, type: RecordingType): Promise<RecordingDoc> =>
    guardedUpload(interview, index, (id, maxBytes) =>
      recordings.store(paced(ctx.req, config.UPLOAD_MIN_BYTES, config.UPLOAD_RATE_WINDOW_SECONDS * 1000), {
        id,
        interviewId: interview._id,
        index,
        type,
        maxBytes,
      }),
    );
}

const TICK = Symbol('tick');

/**
 * The body as it arrives, cut with a RequestTimeoutError (408) when less than `minBytes` came in a window of
 * `windowMs` (a slowloris upload): the request is answered and its connection closed, and the rest is never
 * read. The body's own iterator is left alone when cut, since ending it would destroy the socket before the
 * answer is written.
 */
export async function* paced(body: AsyncIterable<Uint8Array>, minBytes: number, windowMs: number): AsyncGenerator<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  let windowEnd = Date.now() + windowMs;
  let got = 0;
  let next: Promise<IteratorResult<Uint8Array>> | null = null;
  for (;;) {
    next ??= chunks.next();
    let timer: NodeJS.Timeout | undefined;
    const tick = new Promise<typeof TICK>((resolve) => (timer = setTimeout(() => resolve(TICK), Math.max(0, windowEnd - Date.now()))));
    const arrived = await Promise.race([next, tick]).finally(() => clearTimeout(timer));
    if (arrived === TICK || Date.now() >= windowEnd) {
      if (got < minBytes)
        throw new RequestTimeoutError(`The recording arrived too slowly (under ${minBytes} bytes in ${windowMs / 1000} s).`);
      windowEnd = Date.now() + windowMs;
      got = 0;
      if (arrived === TICK) continue;
    }
    next = null;
    if (arrived.done) return;
    got += arrived.value.byteLength;
    yield arrived.value;
  }
}
