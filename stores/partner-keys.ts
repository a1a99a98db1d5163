import { createHash, createHmac } from 'node:crypto';
import type { Database } from '../infra/database';
import { newId, newToken } from '../infra/ids';
import { safeEqual } from '../infra/safe-equal';
import { seal, sealedVersion, unseal } from '../infra/sealed';
import type { PartnerCredentialDoc } from '../infra/documents/partners';
import type { WorkspaceDoc } from '../infra/documents/workspaces';
import type { PartnerAts, PartnerCredential } from '../shared/partners/schema';
import { sharedKey } from './shared-keys';
import type { VersionedKey } from './person-keys';

/**
 * What the ATS doors authenticate with and call back with (docs/ats/): the keys a workspace admin makes for its
 * ATS (`partner_credentials`), each shown once and kept only as a hash, found by one exact `_id` read; and the
 * customer's own key we report to their ATS with (`partner_secrets`, an Ashby API key), sealed under a key
 * derived from the operator's PERSON_HASH_SECRET(S) (infra/sealed.ts; the database's own key where none is
 * configured, as for people's hashes), and never returned.
 */

/** Each ATS's keys begin with their own prefix, so a key pasted into the wrong ATS is told apart at a glance. */
const PREFIX: Record<PartnerAts, string> = { greenhouse: 'ghk_', ashby: 'abk_' };
const hashOf = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');
const docId = (key: string) => `pk_${hashOf(key)}`;
const secretId = (workspaceId: string, ats: PartnerAts) => `${workspaceId}/${ats}-api-key`;
const SEALING_LABEL = 'hiring-integration/sealed-secrets/v1';
const DATABASE_SEALING_KEY = 'sealed-secrets-key';

export function partnerKeyStore(db: Database, secrets: VersionedKey[]) {
  /** The sealing key new values are sealed with: the newest operator secret's, or the database's own (version 0) without one. */
  async function currentKey(): Promise<VersionedKey> {
    return (await keyOf(secrets.length === 0 ? 0 : secrets[0].version))!;
  }
  /**
   * The key a value sealed under `version` needs; null when that secret is no longer configured. Version 0, the
   * database's own, stays readable after an operator first configures a secret: what was sealed before still opens.
   */
  async function keyOf(version: number | null): Promise<VersionedKey | null> {
    if (version === 0) return { version: 0, secret: await sharedKey(db, DATABASE_SEALING_KEY) };
    const given = secrets.find((s) => s.version === version);
    return given ? { version: given.version, secret: createHmac('sha256', given.secret).update(SEALING_LABEL).digest() } : null;
  }

  return {
    /**
     * A new key for the workspace's `ats`, shown this once. `replaceAfterHours`: the workspace's earlier keys
     * for it stop working that many hours from now (a rotation, with its overlap).
     */
    async create(workspaceId: string, ats: PartnerAts, replaceAfterHours?: number, now = new Date()) {
      if (replaceAfterHours !== undefined) {
        const until = new Date(now.getTime() + replaceAfterHours * 3_600_000);
        const earlier = await db.partnerCredentials.find({ workspace_id: workspaceId, ats, revoked_at: null }).toArray();
        for (const e of earlier)
          if (!e.expires_at || e.expires_at > until) await db.partnerCredentials.updateOne({ _id: e._id }, { $set: { expires_at: until } });
      }
      const key = PREFIX[ats] + newToken(32);
      const doc: PartnerCredentialDoc = {
        _id: docId(key),
        credential_id: newId('pcr'),
        workspace_id: workspaceId,
        ats,
        prefix: key.slice(0, PREFIX[ats].length + 6),
        created_at: now,
        expires_at: null,
        revoked_at: null,
      };
      await db.partnerCredentials.insertOne(doc);
      return { key, doc };
    },

    /** The workspace whose live key for `ats` this is; null for any other (unknown, revoked, expired, another ATS's). */
    async authenticate(ats: PartnerAts, presented: string | undefined, now = new Date()): Promise<Readonly<WorkspaceDoc> | null> {
      if (!presented || !presented.startsWith(PREFIX[ats]) || presented.length > 200) return null;
      const doc = await db.partnerCredentials.findOne({ _id: docId(presented) });
      if (!doc || doc.ats !== ats || doc.revoked_at || (doc.expires_at && doc.expires_at <= now)) return null;
      // The `_id` names the hash: compared in constant time all the same, as the workspaces' keys are.
      if (!safeEqual(doc._id, docId(presented))) return null;
      return db.shared.workspace(doc.workspace_id);
    },

    list: (workspaceId: string, ats: PartnerAts) =>
      db.partnerCredentials.find({ workspace_id: workspaceId, ats }).sort({ created_at: 1 }).toArray(),

    /** Revokes one key of the workspace's; false when it has no such key. */
    async revoke(workspaceId: string, ats: PartnerAts, credentialId: string, now = new Date()): Promise<boolean> {
      const doc = await db.partnerCredentials.findOne({ workspace_id: workspaceId, ats, credential_id: credentialId });
      if (!doc) return false;
      if (!doc.revoked_at) await db.partnerCredentials.updateOne({ _id: doc._id }, { $set: { revoked_at: now } });
      return true;
    },

    /** Keeps the customer's own key for their ATS, sealed; the last four characters stay readable, to tell keys apart. */
    async putSecret(workspaceId: string, ats: PartnerAts, plain: string, now = new Date()): Promise<void> {
      const key = await currentKey();
      await db.partnerSecrets.updateOne(
        { _id: secretId(workspaceId, ats) },
        { $set: { workspace_id: workspaceId, sealed: seal(key, plain), last4: plain.slice(-4), updated_at: now } },
        { upsert: true },
      );
    },
    /** The customer's key, unsealed for a request to their ATS; null when none is kept. */
    async secret(workspaceId: string, ats: PartnerAts): Promise<string | null> {
      const doc = await db.partnerSecrets.findOne({ _id: secretId(workspaceId, ats) });
      if (!doc) return null;
      const version = sealedVersion(doc.sealed);
      const key = await keyOf(version);
      if (!key) throw new Error(`the ${ats} key of ${workspaceId} was sealed with a key no longer configured (version ${version})`);
      return unseal(key, doc.sealed);
    },
    /** Whether one is kept, and its last four characters. */
    async secretHint(workspaceId: string, ats: PartnerAts): Promise<{ last4: string; updated_at: Date } | null> {
      const doc = await db.partnerSecrets.findOne({ _id: secretId(workspaceId, ats) });
      return doc && { last4: doc.last4, updated_at: doc.updated_at };
    },
    /** A credential sealed to be kept with an order (the key a Greenhouse send_test came with, which its report needs). */
    async seal(plain: string): Promise<string> {
      return seal(await currentKey(), plain);
    },
    /** A value `seal` made; null for none, or one sealed with a key no longer configured. */
    async openSealed(sealed: string | null): Promise<string | null> {
      if (!sealed) return null;
      const key = await keyOf(sealedVersion(sealed));
      return key ? unseal(key, sealed) : null;
    },
    async removeSecret(workspaceId: string, ats: PartnerAts): Promise<boolean> {
      return (await db.partnerSecrets.deleteOne({ _id: secretId(workspaceId, ats) })).deletedCount === 1;
    },
  };
}

export type PartnerKeyStore = ReturnType<typeof partnerKeyStore>;

/** A key as the API and the admin CLI show it: never the key, only its first characters. */
export function credentialView(doc: PartnerCredentialDoc): PartnerCredential {
  return {
    id: doc.credential_id,
    ats: doc.ats,
    prefix: doc.prefix,
    created_at: doc.created_at.toISOString(),
    expires_at: doc.expires_at?.toISOString() ?? null,
    revoked_at: doc.revoked_at?.toISOString() ?? null,
  };
}
