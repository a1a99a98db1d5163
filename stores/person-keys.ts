import { createHmac } from 'node:crypto';
import type { Database } from '../infra/database';
import { sharedKey } from './shared-keys';
import { insertOnce } from '../infra/duplicate-key';
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

/**
 * The label each use's key is derived from a configured secret with: `person-keys`, and before 2026-11-27
 * `contact-keys`. The label was renamed in place then (commit 94da5c6), and every hash an operator's secret had
 * filed before it (a STOP, an erasure's entry, a dial cap, an email claim, the person index) silently stopped
 * matching. A label is a stored format: the earlier one is read beside the current one, never replaced, in any
 * database that may hold hashes it made (EARLIER_LABELS), and new hashes use the current one. `admin people:rekey`
 * files again under the current label what it can; an erasure's entry keeps only its hashes, so the earlier
 * label is read for as long as the database is.
 */
const LABEL = 'person-keys';
const EARLIER_LABEL = 'contact-keys';
/**
 * `settings`: whether this database may hold hashes of the earlier label. Decided once, by the first process of
 * this release to look: a database with no workspace yet holds no hash of any label (`current-only`); any other
 * was written by an earlier release, and may (`earlier-too`). Tests hold both against fixtures.
 */
const EARLIER_LABELS = 'person-key-labels';

export interface PersonHashKeys {
  /** The key new hashes of `use` are made with. */
  current(use: PersonKeyUse): Promise<VersionedKey>;
  /** Every key hashes of `use` may have been made with, the current first (and each secret's earlier label's, where any may exist). */
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

/**
 * Whether this database may hold hashes of the earlier label, decided once and kept (EARLIER_LABELS): the
 * workspaces' store records it before it creates a workspace, so a new database says `current-only` from the
 * first, and one an earlier release wrote says `earlier-too` whenever this release first looks.
 */
export async function recordEarlierLabels(db: Database): Promise<boolean> {
  let doc = await db.settings.findOne({ _id: EARLIER_LABELS });
  if (!doc) {
    const fresh = (await db.workspaces.findOne({}, { projection: { _id: 1 } })) === null;
    await insertOnce(db.settings, { _id: EARLIER_LABELS, value: fresh ? 'current-only' : 'earlier-too' });
    doc = await db.settings.findOne({ _id: EARLIER_LABELS });
  }
  return doc?.value !== 'current-only';
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
  const byUse = new Map<string, VersionedKey[]>();
  const derived = (use: PersonKeyUse, label = LABEL) => {
    let keys = byUse.get(`${label}/${use}`);
    if (!keys) {
      keys = secrets.map(({ version, secret }) => ({
        version,
        secret: createHmac('sha256', secret).update(`hiring-integration/${label}/${use}`).digest(),
      }));
      byUse.set(`${label}/${use}`, keys);
    }
    return keys;
  };
  let earlier: Promise<boolean> | null = null;
  /** Whether this database may hold hashes of the earlier label (EARLIER_LABELS), read once per process. */
  function earlierLabel(): Promise<boolean> {
    if (secrets.length === 0) return Promise.resolve(false);
    earlier ??= recordEarlierLabels(db);
    earlier.catch(() => (earlier = null));
    return earlier;
  }
  return {
    async current(use) {
      return derived(use)[0] ?? (await legacyKey(use))!;
    },
    async all(use) {
      const [old, withEarlier] = await Promise.all([legacyKey(use), earlierLabel()]);
      const configured = [...derived(use), ...(withEarlier ? derived(use, EARLIER_LABEL) : [])];
      return old && !configured.some((k) => k.version === 0) ? [...configured, old] : configured;
    },
  };
}

/** A hash's prefix with its key's version: `sk` for version 0 (as hashes were before versions), `sk2` after. */
export const versionedPrefix = (prefix: string, version: number) => (version === 0 ? prefix : `${prefix}${version}`);

/** The person's keyed hashes (infra/people.ts) made with `key`, each named with the key's version. */
export const versionedKeys = (key: VersionedKey, prefix: string, scope: string, person: Person, kinds: readonly PersonKeyKind[]) =>
  personKeys(key.secret, versionedPrefix(prefix, key.version), scope, person, kinds);
