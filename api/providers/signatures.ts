import { createHmac } from 'node:crypto';
import { safeEqual } from '../../infra/safe-equal';

/** A signed timestamp older or newer than this is a replay, not a delivery. */
export const MAX_SIGNATURE_AGE_SECONDS = 300;

export function hmacHex(secret: string, payload: Buffer | string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

type Headers = Record<string, string | string[] | undefined>;
const header = (h: Headers, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Vapi authenticates server messages in one of the ways its server settings offer, all with one shared
 * secret: an HMAC-SHA256 credential (`x-vapi-signature`, hex, optionally `sha256=`-prefixed, over
 * `{timestamp}.{body}` with `x-vapi-timestamp` within 5 minutes; a signature without its timestamp is
 * refused, since one over the body alone replays for ever), the server's `x-vapi-secret` header, or a
 * Bearer-token credential (`Authorization: Bearer <secret>`). Vapi's server SDK has no helper for checking
 * its messages, hence this one.
 */
export function verifyVapi(headers: Headers, raw: Buffer, secret: string, nowMs: number): boolean {
  const signature = header(headers, 'x-vapi-signature');
  if (signature !== undefined) {
    // A signature over the body alone could be replayed for ever: it is taken only with its timestamp.
    const timestamp = header(headers, 'x-vapi-timestamp');
    if (timestamp === undefined) return false;
    const seconds = Number(timestamp.length > 11 ? Number(timestamp) / 1000 : timestamp);
    if (!Number.isFinite(seconds) || Math.abs(nowMs / 1000 - seconds) > MAX_SIGNATURE_AGE_SECONDS) return false;
    return safeEqual(signature.replace(/^sha256=/, '').toLowerCase(), hmacHex(secret, Buffer.concat([Buffer.from(`${timestamp}.`), raw])));
  }
  const shared = header(headers, 'x-vapi-secret');
  if (shared !== undefined) return safeEqual(shared, secret);
  const bearer = /^Bearer (.+)$/.exec(header(headers, 'authorization') ?? '');
  return bearer !== null && safeEqual(bearer[1], secret);
}

/** Meta signs webhook deliveries with the app secret: `X-Hub-Signature-256: sha256=<hex HMAC of the raw body>`. */
export function verifyHubSignature(headers: Headers, raw: Buffer, appSecret: string): boolean {
  const signature = /^sha256=([0-9a-fA-F]{64})$/.exec(header(headers, 'x-hub-signature-256') ?? '');
  return signature !== null && safeEqual(signature[1].toLowerCase(), hmacHex(appSecret, raw));
}
