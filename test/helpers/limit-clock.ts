/**
 * The time a test stack's limits count requests at (composition/service.ts, `limitsClock`): the real time,
 * except while a test holds it inside a window of its own, so a burst of requests lands in one window however
 * slow the machine is, instead of racing the real window's edge (docs/tests.md, "Time").
 */
export class LimitClock {
  private at: number | null = null;
  private holds = 0;

  /** The stack's limits read this. */
  readonly now = (): Date => new Date(this.at ?? Date.now());

  /**
   * Holds the clock one second into a window of `windowSeconds` that no request of the real time reaches
   * during the run (a month ahead, two days apart for each hold), so the window is the test's alone and whole.
   */
  hold(windowSeconds: number): void {
    const length = windowSeconds * 1000;
    const ahead = Date.now() + 30 * 86_400_000 + ++this.holds * 2 * 86_400_000;
    this.at = Math.ceil(ahead / length) * length + 1_000;
  }

  /** Moves the held clock on (a test that waits out its window, without waiting). */
  advance(ms: number): void {
    if (this.at === null) throw new Error('the limit clock is not held');
    this.at += ms;
  }

  release(): void {
    this.at = null;
  }

  /** Runs `burst` with the clock held in a window of its own (`hold`), and real again after it. */
  async inOneWindow<T>(windowSeconds: number, burst: () => Promise<T>): Promise<T> {
    this.hold(windowSeconds);
    try {
      return await burst();
    } finally {
      this.release();
    }
  }
}
