/** The bytes of a canonical WAV header (RIFF, `fmt `, `data`). */
export const WAV_HEAD_BYTES = 44;

/** A WAV header for `dataBytes` of 16-bit little-endian mono PCM at `sampleRate`. */
export function wavHead(dataBytes: number, sampleRate: number): Buffer {
  const head = Buffer.alloc(WAV_HEAD_BYTES);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + dataBytes, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16); // the fmt chunk's size
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(sampleRate, 24);
  head.writeUInt32LE(sampleRate * 2, 28); // bytes a second
  head.writeUInt16LE(2, 32); // bytes a sample frame
  head.writeUInt16LE(16, 34); // bits a sample
  head.write('data', 36);
  head.writeUInt32LE(dataBytes, 40);
  return head;
}

/**
 * Voices mixed into one track of 16-bit PCM: each chunk is added at the sample it was heard at, or taken out
 * again, and what no voice can still land in is drained, clipped to 16 bits. Sums are held in 32 bits, so two
 * loud voices clip once, at the end, rather than wrap.
 */
export class PcmMix {
  /** The first sample not yet drained. */
  private base: number;
  private sums: Int32Array;

  constructor(
    from: number,
    private readonly step: number,
  ) {
    this.base = from;
    this.sums = new Int32Array(step * 4);
  }

  /** The first sample not yet drained: nothing before it can change. */
  get drained(): number {
    return this.base;
  }

  /** Adds `pcm` from sample `from`, or takes it out again (`sign` -1) from sample `skip` of it on. */
  add(pcm: Buffer, from: number, sign: 1 | -1 = 1, skip = 0): void {
    const n = Math.floor(pcm.length / 2);
    const need = from + n - this.base;
    if (need > this.sums.length) {
      const grown = new Int32Array(Math.max(need, this.sums.length * 2));
      grown.set(this.sums);
      this.sums = grown;
    }
    for (let i = Math.max(skip, this.base - from); i < n; i++) this.sums[from - this.base + i] += sign * pcm.readInt16LE(i * 2);
  }

  /** The mix up to sample `bound` as 16-bit PCM, which leaves it; null when less than `atLeast` samples are there. */
  drain(bound: number, atLeast = 1): Buffer | null {
    const n = bound - this.base;
    if (n <= 0 || n < atLeast) return null;
    const out = Buffer.alloc(n * 2);
    for (let i = 0; i < n; i++) out.writeInt16LE(Math.max(-32768, Math.min(32767, this.sums[i])), i * 2);
    this.sums = this.sums.slice(n);
    if (this.sums.length < this.step) this.sums = new Int32Array(this.step * 4);
    this.base = bound;
    return out;
  }
}
