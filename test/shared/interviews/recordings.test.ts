import { byteRange, bytesMatch, containerOf, recordingType } from '../../../shared/interviews/recordings';

describe('recorded answers: types by their bytes, and byte ranges', () => {
  const webm = Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4, 5, 6, 7, 8]);
  const ogg = Uint8Array.from([0x4f, 0x67, 0x67, 0x53, 0, 2, 0, 0, 0, 0, 0, 0]);
  const mp4 = Uint8Array.from([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]);

  it('tells the container by its leading bytes, and matches it with the declared type', () => {
    expect([webm, ogg, mp4, Uint8Array.from([0x89, 0x50, 0x4e, 0x47])].map(containerOf)).toEqual(['webm', 'ogg', 'mp4', null]);
    expect(bytesMatch('audio/webm', webm)).toBe(true);
    expect(bytesMatch('video/webm', webm)).toBe(true);
    expect(bytesMatch('audio/ogg', webm)).toBe(false);
    expect(bytesMatch('video/mp4', mp4)).toBe(true);
    expect(bytesMatch('audio/webm', Uint8Array.from([0x1a, 0x45]))).toBe(false);
  });

  it('reads a declared type without its parameters, and only the five it takes', () => {
    expect(recordingType('audio/webm;codecs=opus')).toBe('audio/webm');
    expect(recordingType('VIDEO/MP4')).toBe('video/mp4');
    expect(recordingType('audio/wav')).toBeNull();
    expect(recordingType(undefined)).toBeNull();
  });

  it('serves one range, a suffix, an open end, and nothing outside the file', () => {
    expect(byteRange(undefined, 1000)).toBeNull();
    expect(byteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=990-2000', 1000)).toEqual({ start: 990, end: 999 });
    expect(byteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(byteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(byteRange('bytes=5-2', 1000)).toBeNull(); // invalid, so ignored: the whole file (RFC 9110)
    expect(byteRange('bytes=1500-1200', 1000)).toBeNull();
    expect(byteRange('bytes=-0', 1000)).toBe('unsatisfiable');
    // Several ranges, or another unit: the whole file.
    expect(byteRange('bytes=0-1,5-9', 1000)).toBeNull();
    expect(byteRange('items=0-1', 1000)).toBeNull();
  });
});
