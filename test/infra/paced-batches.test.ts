import { pacedBatches } from '../../infra/paced-batches';

/** A sender that records each batch with when it left, and answers when told. */
function recorder(fail?: (items: number[]) => boolean) {
  const sent: Array<{ key: string; items: number[]; at: number }> = [];
  const send = async (key: string, items: number[]) => {
    sent.push({ key, items: [...items], at: Date.now() });
    await new Promise((r) => setTimeout(r, 20));
    if (fail?.(items)) throw new Error(`batch ${items.join(',')} failed`);
  };
  return { sent, send };
}

describe('pacedBatches', () => {
  it('sends a lone item at once, and what comes in the same tick with it', async () => {
    const { sent, send } = recorder();
    const give = pacedBatches(1_000, send);
    const t0 = Date.now();
    await Promise.all([give('a', 1), give('a', 2)]);
    expect(sent).toEqual([{ key: 'a', items: [1, 2], at: expect.any(Number) }]);
    expect(sent[0].at - t0).toBeLessThan(500);
  });

  it('gathers what comes during a batch into the next, which leaves gapMs after it', async () => {
    const { sent, send } = recorder();
    const give = pacedBatches(100, send);
    // Before the first batch left: a bound no pause between a batch leaving and its record can move.
    const t0 = Date.now();
    const first = give('a', 1);
    await new Promise((r) => setTimeout(r, 5));
    const rest = [give('a', 2), give('a', 3)];
    await first;
    const more = give('a', 4);
    await Promise.all([...rest, more]);
    expect(sent.map((s) => s.items)).toEqual([[1], [2, 3, 4]]);
    expect(sent[1].at - t0).toBeGreaterThanOrEqual(100);
  });

  it('leaves gapMs by the clock even when its timer fires before the clock has come that far', async () => {
    // Timers count on the event loop's own clock, which can run behind Date.now() by a few ms (a busy turn, a
    // coarse monotonic clock): here the clock falls 5 ms behind while the second batch waits.
    const { sent, send } = recorder();
    const give = pacedBatches(100, send);
    const t0 = Date.now();
    const first = give('a', 1);
    await new Promise((r) => setTimeout(r, 5));
    const second = give('a', 2);
    await first;
    await new Promise((r) => setTimeout(r, 30));
    const clock = Date.now;
    const behind = jest.spyOn(Date, 'now').mockImplementation(() => clock() - 5);
    try {
      await second;
    } finally {
      behind.mockRestore();
    }
    expect(sent.map((s) => s.items)).toEqual([[1], [2]]);
    expect(sent[1].at - t0).toBeGreaterThanOrEqual(100);
  });

  it('keeps keys apart', async () => {
    const { sent, send } = recorder();
    const give = pacedBatches(1_000, send);
    await Promise.all([give('a', 1), give('b', 2)]);
    expect(sent.map((s) => [s.key, s.items])).toEqual([
      ['a', [1]],
      ['b', [2]],
    ]);
  });

  it('fails the callers of a failed batch, and only them; the next batch still goes', async () => {
    const { sent, send } = recorder((items) => items.includes(1));
    const give = pacedBatches(10, send);
    const first = give('a', 1);
    await new Promise((r) => setTimeout(r, 5));
    const second = give('a', 2);
    await expect(first).rejects.toThrow('batch 1 failed');
    await expect(second).resolves.toBeUndefined();
    expect(sent.map((s) => s.items)).toEqual([[1], [2]]);
  });
});
