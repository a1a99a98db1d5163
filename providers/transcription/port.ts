import type { RecordingType } from '../../shared/interviews/recordings';

/** A recorded answer to be transcribed: its bytes and their container type. */
export interface Recording {
  bytes: Buffer;
  type: RecordingType;
}

/**
 * Speech to text for recorded interview answers. A failure is an UpstreamError (shared/errors.ts) whose
 * `retryable` says whether a later attempt may pass.
 */
export interface Transcriber {
  readonly name: string;
  transcribe(recording: Recording): Promise<string>;
}
