import { randomBytes } from 'node:crypto';

/** A prefixed, unguessable identifier such as `ws_3f9c…` (96 random bits). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** An opaque secret token with `bytes` bytes of entropy, URL-safe. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
