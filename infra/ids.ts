import { createHash, randomBytes } from 'node:crypto';

/** A prefixed, unguessable identifier such as `ws_3f9c…` (96 random bits). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/**
 * A prefixed identifier derived from a business key, such as a project from (workspace, ats_job_id): the same
 * parts always give the same id, so the unique `_id` index decides uniqueness and every lookup is an exact `_id`
 * match (the only filter FerretDB's SQLite backend answers from an index). 96 bits of SHA-256, like newId.
 */
export function keyedId(prefix: string, ...parts: string[]): string {
  const hash = createHash('sha256');
  // Length-prefixed parts, so ('ab', 'c') and ('a', 'bc') never meet.
  for (const part of parts) hash.update(`${Buffer.byteLength(part, 'utf8')}:${part}`, 'utf8');
  return `${prefix}_${hash.digest('hex').slice(0, 24)}`;
}

/** An opaque secret token with `bytes` bytes of entropy, URL-safe. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
