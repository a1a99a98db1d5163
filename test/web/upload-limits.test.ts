import { request } from 'node:http';
import { startStack, type Stack } from '../helpers/stack';
import { startedInterview } from '../helpers/invite';
import { uploadKey } from '../../stores/recordings';

/** WebM's leading bytes (an EBML header), then filler: what the recording store takes as audio/webm. */
const webm = (bytes: number) => Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(bytes - 4, 7)]);

/**
 * The limits of recorded answers, on the real stack: one upload per question at a time, a cap on uploads at
 * once in a process, a byte quota per interview, and the sweep of what uploads leave behind.
 */
describe('recording uploads', () => {
  let stack: Stack;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({
      worker: true,
      env: { MAX_CONCURRENT_UPLOADS: '2', RECORDING_MAX_BYTES: '50000', RECORDING_QUOTA_BYTES: '70000' },
    });
    ({ key } = await stack.newWorkspace('Uploads'));
  });
  afterAll(() => stack?.stop());

  /** An interview of two spoken questions, started: its first question is open. */
  const started = (job: string) =>
    startedInterview(
      stack,
      key,
      job,
      [1, 2].map((n) => ({ question: `Spoken ${n}?`, type: 'audio', time_limit_seconds: 300 })),
    );
  const upload = (url: string, index: number, body: Buffer) =>
    fetch(`${url}/answers/${index}/recording?duration=5`, {
      method: 'POST',
      headers: { origin: stack.url, 'content-type': 'audio/webm' },
      body: new Uint8Array(body),
    });
  /** An upload that sends its first bytes and then holds, until `finish` sends the rest. */
  function slowUpload(url: string, index: number, size = 40_000) {
    const body = webm(size);
    const target = new URL(`${url}/answers/${index}/recording?duration=5`);
    let answered: (status: number) => void;
    const status = new Promise<number>((r) => (answered = r));
    const req = request(target, {
      method: 'POST',
      headers: { origin: stack.url, 'content-type': 'audio/webm', 'content-length': String(size) },
    });
    req.on('response', (res) => {
      res.resume();
      answered(res.statusCode!);
    });
    req.write(body.subarray(0, 1_000));
    return {
      finish: () => {
        req.end(body.subarray(1_000));
        return status;
      },
    };
  }
  const settle = () => new Promise((r) => setTimeout(r, 300));

  it('answers 409 to a second upload of a question while the first is in flight, and takes the first', async () => {
    const { url } = await started('upload-twice');
    const first = slowUpload(url, 0);
    await settle();
    const second = await upload(url, 0, webm(2_000));
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ message: 'This answer is being uploaded already. Wait for that upload to finish.' });
    expect(await first.finish()).toBe(200);
  });

  it('answers 503 with Retry-After past the uploads a process takes at once', async () => {
    const [a, b, c] = await Promise.all(['upload-cap-a', 'upload-cap-b', 'upload-cap-c'].map(started));
    const held = [slowUpload(a.url, 0), slowUpload(b.url, 0)];
    await settle();
    const refused = await upload(c.url, 0, webm(2_000));
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await Promise.all(held.map((h) => h.finish()))).toEqual([200, 200]);
    expect((await upload(c.url, 0, webm(2_000))).status).toBe(200);
  });

  it("refuses a recording past the interview's byte quota, saying so", async () => {
    const { url, id } = await started('upload-quota');
    expect((await upload(url, 0, webm(40_000))).status).toBe(200);
    // 30,000 bytes are left of 70,000: under one recording's 50,000, over what the interview has left.
    const over = await upload(url, 1, webm(40_000));
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({
      message: "This interview's recordings have reached their size limit. Please type this answer instead.",
    });
    expect(await stack.db.recordings.countDocuments({ interview_id: id })).toBe(1);
  });

  it('sweeps the chunks of an upload whose process died and recordings no answer references, and keeps the rest', async () => {
    const { url, id } = await started('upload-sweep');
    expect((await upload(url, 0, webm(2_000))).status).toBe(200);
    const kept = (await stack.db.recordings.findOne({ interview_id: id }))!;
    const now = new Date();
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
    // An upload that died mid-way: its claim lapsed, two chunks written, no recording.
    await stack.db.claims.insertOne({ _id: uploadKey(id, 1), holder: 'rec_died', expires_at: hoursAgo(1), created_at: hoursAgo(2) });
    await stack.db.recordingChunks.insertMany([0, 1].map((n) => ({ _id: `rec_died|${n}`, data: webm(10) as never })));
    // A recording whose answer was never saved, and the kept one, both old enough to be looked at.
    await stack.db.recordings.insertOne({ ...kept, _id: 'rec_orphan', chunks: 1, created_at: hoursAgo(2) });
    await stack.db.recordingChunks.insertOne({ _id: 'rec_orphan|0', data: webm(10) as never });
    await stack.db.recordings.updateOne({ _id: kept._id }, { $set: { created_at: hoursAgo(2) } });

    expect(await stack.stores.purgeExpired(now)).toMatchObject({ uploads: 1, recordings: 1 });
    expect(await stack.db.recordingChunks.countDocuments({ _id: { $in: ['rec_died|0', 'rec_died|1', 'rec_orphan|0'] } })).toBe(0);
    expect(await stack.db.recordings.findOne({ _id: 'rec_orphan' })).toBeNull();
    expect(await stack.db.claims.findOne({ _id: uploadKey(id, 1) })).toBeNull();
    expect(await stack.db.recordings.findOne({ _id: kept._id })).toMatchObject({ kept: true });
    expect(await stack.db.recordingChunks.findOne({ _id: `${kept._id}|0` })).not.toBeNull();
    // Seen referenced once, it is not looked at again.
    expect(await stack.stores.purgeExpired(now)).toMatchObject({ uploads: 0, recordings: 0 });
  });
});
