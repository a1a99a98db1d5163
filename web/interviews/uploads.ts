import type { Config } from '../../infra/config';
import type { InterviewDoc } from '../../infra/documents/interviews';
import type { RecordingStore } from '../../stores/recordings';
import { ConflictError, PayloadTooLargeError, ServiceUnavailableError } from '../../shared/errors';

/**
 * An upload, guarded before its body is read: one per question at a time (a second is a 409, whichever
 * process it reaches), at most MAX_CONCURRENT_UPLOADS in this process (503 with Retry-After), and within
 * what is left of the interview's byte quota. The claim names the recording, so a sweep can remove the
 * chunks of an upload whose process died (stores/recordings.ts).
 */
export function uploadGuard({ recordings, config, now }: { recordings: RecordingStore; config: Config; now: () => Date }) {
  let uploading = 0;
  return async function guardedUpload<T>(
    interview: InterviewDoc,
    index: number,
    store: (id: string, maxBytes: number) => Promise<T>,
  ): Promise<T> {
    if (uploading >= config.MAX_CONCURRENT_UPLOADS) throw new ServiceUnavailableError('uploads');
    const used = (interview.answers ?? []).reduce((sum, a) => sum + (a.recording?.size ?? 0), 0);
    const left = config.RECORDING_QUOTA_BYTES - used;
    if (left <= 0) throw new PayloadTooLargeError('the interview quota', 'interview');
    const id = recordings.newId();
    if (!(await recordings.claimUpload(interview._id, index, id, now()))) {
      throw new ConflictError('This answer is being uploaded already. Wait for that upload to finish.');
    }
    uploading++;
    try {
      return await store(id, Math.min(config.RECORDING_MAX_BYTES, left));
    } catch (err) {
      // Over what is left of the quota, though under the one recording's limit: the quota is what refused it.
      if (err instanceof PayloadTooLargeError && left < config.RECORDING_MAX_BYTES)
        throw new PayloadTooLargeError('the interview quota', 'interview');
      throw err;
    } finally {
      uploading--;
      await recordings.releaseUpload(interview._id, index, id);
    }
  };
}
