import { request } from 'node:http';
import { startStack, type Stack } from '../helpers/stack';
import { startedInterview } from '../helpers/invite';

/** WebM's leading bytes (an EBML header), then filler: what the recording store takes as audio/webm. */
const webm = (bytes: number) => Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(bytes - 4, 7)]);

/**
 * Slow uploads cannot starve others, on the real stack: one workspace holds at most its share of the
 * process's upload slots, and a body that trickles (under 16 kB in a window, here 2 s) is cut with a 408.
 */
describe('upload slots under slow bodies', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      worker: true,
      env: { MAX_CONCURRENT_UPLOADS: '3', MAX_CONCURRENT_UPLOADS_PER_WORKSPACE: '2', UPLOAD_RATE_WINDOW_SECONDS: '2' },
    });
  });
  afterAll(() => stack?.stop());

  const started = async (key: string, job: string) =>
    (await startedInterview(stack, key, job, [{ question: 'Spoken?', type: 'audio', time_limit_seconds: 300 }])).url;
  const upload = (url: string, body: Buffer) =>
    fetch(`${url}/answers/0/recording?duration=5`, {
      method: 'POST',
      headers: { origin: stack.url, 'content-type': 'audio/webm' },
      body: new Uint8Array(body),
    });
  /** An upload that sends its first kilobyte and holds, until `finish` sends the rest. */
  function heldUpload(url: string, size = 40_000) {
    const body = webm(size);
    let answered: (status: number) => void;
    const status = new Promise<number>((r) => (answered = r));
    const req = request(new URL(`${url}/answers/0/recording?duration=5`), {
      method: 'POST',
      headers: { origin: stack.url, 'content-type': 'audio/webm', 'content-length': String(size) },
    });
    req.on('response', (res) => {
      res.resume();
      answered(res.statusCode!);
    });
    req.on('error', () => answered(0));
    req.write(body.subarray(0, 1_000));
    return { status, finish: () => (req.end(body.subarray(1_000)), status) };
  }
  const settle = () => new Promise((r) => setTimeout(r, 300));

  it("holds one workspace to its share of the slots, and another workspace's candidate still uploads", async () => {
    const a = (await stack.newWorkspace('Slowco')).key;
    const b = (await stack.newWorkspace('Quickco')).key;
    const [a1, a2, a3, b1] = await Promise.all([
      started(a, 'fair-a1'),
      started(a, 'fair-a2'),
      started(a, 'fair-a3'),
      started(b, 'fair-b1'),
    ]);
    const held = [heldUpload(a1), heldUpload(a2)];
    await settle();
    const third = await upload(a3, webm(2_000));
    expect(third.status).toBe(503);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The process has a slot left, and it is another workspace's to take.
    expect((await upload(b1, webm(2_000))).status).toBe(200);
    expect(await Promise.all(held.map((h) => h.finish()))).toEqual([200, 200]);
    expect((await upload(a3, webm(2_000))).status).toBe(200);
  });

  it('cuts a body that trickles with a 408, stores nothing of it, and frees its slot', async () => {
    const key = (await stack.newWorkspace('Trickleco')).key;
    const [slow, next] = await Promise.all([started(key, 'trickle-1'), started(key, 'trickle-2')]);
    const before = await stack.db.recordingChunks.countDocuments({});
    const started_ = Date.now();
    const trickle = heldUpload(slow);
    expect(await trickle.status).toBe(408);
    // Cut after the first window with too little (2 s here), not left to hold its slot.
    expect(Date.now() - started_).toBeLessThan(6_000);
    expect(await stack.db.recordings.countDocuments({ index: 0, interview_id: slow.split('/').pop()!.split('.')[0] })).toBe(0);
    expect(await stack.db.recordingChunks.countDocuments({})).toBe(before);
    expect((await upload(next, webm(2_000))).status).toBe(200);
    expect((await upload(slow, webm(2_000))).status).toBe(200);
  });
});
