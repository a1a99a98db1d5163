/** The X-RateLimit-* headers of an AI operation's response, as numbers and strings a test compares. */
export const budget = (headers: Headers) => ({
  limit: headers.get('x-ratelimit-limit'),
  remaining: headers.get('x-ratelimit-remaining'),
  reset: Number(headers.get('x-ratelimit-reset')),
});
