import type { Logger } from './logger';

/**
 * Runs `sweep` (what has run out, removed: Stores.purgeExpired) every `everySeconds` until stopped. Each sweep
 * reads every document of the collections it cleans on FerretDB (it pushes no range down), which is why it runs
 * every few minutes from the worker, not on a request's way. A sweep that fails is logged, and the next one
 * tries again.
 */
export function startHousekeeping(
  sweep: (now: Date) => Promise<Record<string, number>>,
  logger: Logger,
  everySeconds: number,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = sweep(new Date()).then(
      (removed) => {
        if (Object.values(removed).some((n) => n > 0)) logger.info({ removed }, 'expired documents removed');
      },
      (err: unknown) => logger.warn({ err }, 'housekeeping sweep failed; the next one tries again'),
    );
  }, everySeconds * 1_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
