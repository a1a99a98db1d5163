import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares secrets (a signature, a token, a verify token) in constant time, whatever their lengths (both are
 * hashed to the same size first). Signatures are compared as written, not decoded: base64url decoding ignores
 * a last character's unused bits and drops stray characters, so a decoded comparison would take an altered
 * signature as the one signed.
 */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}
