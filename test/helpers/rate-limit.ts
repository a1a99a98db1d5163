/** The X-RateLimit-* headers of an AI operation's response, as numbers and strings a test compares. */
export const budget = (headers: Headers) => ({
  limit: headers.get('x-ratelimit-limit'),
  remaining: headers.get('x-ratelimit-remaining'),
  reset: Number(headers.get('x-ratelimit-reset')),
});

/** Waits until at least `margin` seconds remain in the current fixed window, so a burst does not straddle two windows. */
export async function awayFromWindowEdge(windowSeconds: number, margin: number): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < margin * 1000) await new Promise((r) => setTimeout(r, left + 100));
}
