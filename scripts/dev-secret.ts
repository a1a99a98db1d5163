import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/**
 * The development stack's person hash secret (stores/person-keys.ts), generated on its first start into the
 * dev cache beside the stack's data (mode 600) and read after: `npm run dev` and the admin CLI aimed at its
 * database key people's hashes alike, and never with a key kept in the database.
 */
export function devPersonHashSecret(dataDir: string): string {
  const file = join(dataDir, 'person-hash-secret');
  // The file's name before the setting was renamed: the stack's data keeps matching its hashes.
  const earlier = join(dataDir, 'contact-hash-secret');
  if (!existsSync(file) && existsSync(earlier)) renameSync(earlier, file);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file, 'utf8').trim();
}
