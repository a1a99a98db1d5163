import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A secret a customer gives us to call their own systems with (an Ashby API key), sealed where it is stored:
 * AES-256-GCM under a key the caller holds (stores/partner-keys.ts derives it from the operator's secret),
 * so a copy of the database alone does not give it away. The sealed form names its format and its key's version
 * (`s1.<version>.<iv>.<ciphertext>.<tag>`): a new format or key is added beside the old, never in its place.
 */
export function seal(key: { version: number; secret: Buffer }, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.secret, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['s1', key.version, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The version of the key a sealed value needs, or null when it is no sealed value of a known format. */
export function sealedVersion(sealed: string): number | null {
  const [format, version] = sealed.split('.');
  return format === 's1' && /^\d+$/.test(version ?? '') ? Number(version) : null;
}

/** The value sealed with `key`; throws when it was sealed with another key or was changed. */
export function unseal(key: { secret: Buffer }, sealed: string): string {
  const [, , iv, body, tag] = sealed.split('.');
  const decipher = createDecipheriv('aes-256-gcm', key.secret, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
