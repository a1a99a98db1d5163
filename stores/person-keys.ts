import { createHmac } from 'node:crypto';
import type { Database } from '../infra/database';
import { sharedKey } from './shared-keys';
import { personKeys, type PersonKeyKind, type Person } from '../infra/people';

/**
 * The keys that name people's hashes (infra/people.ts): the suppression list's, the person index's, the dial
 * caps' and the email claims'. Each is derived from a secret the operator gives (PERSON_HASH_SECRET, or
 * PERSON_HASH_SECRETS for several versions, newest first), never kept in the database it protects: with the
 * key beside the hashes, a dump of the database makes every phone hash guessable (E.164 numbers are few).
 *
 * Every hash carries its key's version (`sk2_…`), so a new secret can be added in front: new hashes use it,
 * while lookups try every version, so nothing filed under an older one is forgotten. `admin people:rekey`
 * files again under the newest what it can (docs/security.md); an older secret may go once it reports nothing
 * left under it.
 *
 * Version 0 is the database's own random key of earlier releases (`sk_…`, no number): still read, where it
 * exists, so that hashes filed before keep matching; and used for new hashes only when no secret is
 * configured, which only a non-production process may do.
 */

export type PersonKeyUse = 'suppressions' | 'person-index' | 'dial-caps' | 'email-claims';

/** The `settings` names of the database keys of earlier releases (version 0). */
const LEGACY: Record<PersonKeyUse, string> = {
  suppressions: 'suppression-ledger-key',
  'person-index': 'person-index-key',
  'dial-caps': 'dial_cap_secret',
  'email-claims': 'email_claim_secret',
};

export interface VersionedKey {
  version: number;
  secret: Buffer;
}

export interface PersonHashKeys {
  /** The key new hashes of `use` are made with. */
  current(use: PersonKeyUse): Promise<VersionedKey>;
  /** Every key hashes of `use` may have been made with, the current first. */
  all(use: PersonKeyUse): Promise<VersionedKey[]>;
}

/** The operator's secrets, newest first, as PERSON_HASH_SECRETS (`2:…,1:…`) or PERSON_HASH_SECRET (version 1) give them. */
export function configuredSecrets(config: { PERSON_HASH_SECRET?: string; PERSON_HASH_SECRETS?: string }): VersionedKey[] {
  if (config.PERSON_HASH_SECRETS) {
    return config.PERSON_HASH_SECRETS.split(',').map((item) => {
      const at = item.indexOf(':');
      return { version: Number(item.slice(0, at).trim()), secret: Buffer.from(item.slice(at + 1).trim()) };
    });
  }
  return config.PERSON_HASH_SECRET ? [{ version: 1, secret: Buffer.from(config.PERSON_HASH_SECRET) }] : [];
}

export function personHashKeys(db: Database, secrets: VersionedKey[]): PersonHashKeys {
  const legacy = new Map<PersonKeyUse, Promise<VersionedKey | null>>();
  /** The database's key of earlier releases, read once per process; made only when nothing else is configured. */
  function legacyKey(use: PersonKeyUse): Promise<VersionedKey | null> {
    let key = legacy.get(use);
    if (!key) {
      key =
        secrets.length === 0
          ? sharedKey(db, LEGACY[use]).then((secret) => ({ version: 0, secret }))
          : db.settings
              .findOne({ _id: LEGACY[use] })
              .then((doc) => (doc ? { version: 0, secret: Buffer.from(doc.value, 'base64url') } : null));
      key.catch(() => legacy.delete(use));
      legacy.set(use, key);
    }
    return key;
  }
  // One secret, a key per use: a hash of one use never finds another's. Derived once, not at every lookup.
  const byUse = new Map<PersonKeyUse, VersionedKey[]>();
  const derived = (use: PersonKeyUse) => {
    let keys = byUse.get(use);
    if (!keys) {
      keys = secrets.map(({ version, secret }) => ({
        version,
        secret: createHmac('sha256', secret).update(`hiring-integration/person-keys/${use}`).digest(),
      }));
      byUse.set(use, keys);
    }
    return keys;
  };
  return {
    async current(use) {
      return derived(use)[0] ?? (await legacyKey(use))!;
    },
    async all(use) {
      const old = await legacyKey(use);
      const configured = derived(use);
      return old && !configured.some((k) => k.version === 0) ? [...configured, old] : configured;
    },
  };
}

/** A hash's prefix with its key's version: `sk` for version 0 (as hashes were before versions), `sk2` after. */
export const versionedPrefix = (prefix: string, version: number) => (version === 0 ? prefix : `${prefix}${version}`);

/** The person's keyed hashes (infra/people.ts) made with `key`, each named with the key's version. */
export const versionedKeys = (key: VersionedKey, prefix: string, scope: string, person: Person, kinds: readonly PersonKeyKind[]) =>
  personKeys(key.secret, versionedPrefix(prefix, key.version), scope, person, kinds);
