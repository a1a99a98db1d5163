/**
 * Recorded answers: which media the interview takes, told by the file's own leading bytes as well as by its
 * declared type, and the byte ranges a player asks for. Pure, so the page, the API and their tests share it.
 */
/** What a candidate may upload for an answer. */
export const UPLOAD_TYPES = ['audio/webm', 'audio/ogg', 'audio/mp4', 'video/webm', 'video/mp4'] as const;
/** What a recording may be: an upload, or a live interview's conversation, which the server writes as WAV. */
export const RECORDING_TYPES = [...UPLOAD_TYPES, 'audio/wav'] as const;
export type RecordingType = (typeof RECORDING_TYPES)[number];
/** A live interview's recording of the whole conversation is stored with this index (docs/live-interviews.md). */
export const CONVERSATION_INDEX = -1;

/** Bytes enough to tell the container. */
export const SNIFF_BYTES = 12;

type Container = 'webm' | 'ogg' | 'mp4' | 'wav';
const CONTAINER: Record<RecordingType, Container> = {
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'mp4',
  'video/mp4': 'mp4',
  'audio/wav': 'wav',
};

/** An upload's declared Content-Type as one of ours (parameters such as `codecs` dropped), or null. */
export function recordingType(contentType: string | undefined): RecordingType | null {
  const base = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return (UPLOAD_TYPES as readonly string[]).includes(base) ? (base as RecordingType) : null;
}

/** The container the leading bytes are: EBML (WebM), `OggS`, or an ISO-BMFF `ftyp` box (MP4); null otherwise. */
export function containerOf(head: Uint8Array): Container | null {
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'webm';
  if (head.length >= 4 && head[0] === 0x4f && head[1] === 0x67 && head[2] === 0x67 && head[3] === 0x53) return 'ogg';
  if (head.length >= 8 && head[4] === 0x66 && head[5] === 0x74 && head[6] === 0x79 && head[7] === 0x70) return 'mp4';
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  return null;
}

/** Whether the leading bytes are the container the declared type says. */
export function bytesMatch(type: RecordingType, head: Uint8Array): boolean {
  return containerOf(head) === CONTAINER[type];
}

/**
 * A `Range: bytes=…` header against a file of `size` bytes: the one range asked for, inclusive; null for no
 * header, an invalid one (`bytes=5-3`) or one this does not serve, such as several ranges: the whole file is
 * the answer then;
 * 'unsatisfiable' for a range wholly outside the file.
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? '').trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  // A last position before the first makes the header invalid, and an invalid Range is ignored (RFC 9110 14.2).
  if (match[2] !== '' && Number(match[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1) };
}

/** The file name a download of answer `index` is saved under: `answer-2.webm`, or a conversation's `conversation.wav`. */
export function recordingFileName(index: number, type: RecordingType): string {
  if (index === CONVERSATION_INDEX) return 'conversation.wav';
  return `answer-${index}.${CONTAINER[type] === 'mp4' ? (type.startsWith('audio/') ? 'm4a' : 'mp4') : CONTAINER[type]}`;
}
