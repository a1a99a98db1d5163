import { recordEarlierLabels } from './person-keys';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Database } from '../infra/database';
import { keyedId, newId, newToken } from '../infra/ids';
import type { WorkspaceDoc, ApiKeyDoc, WorkspaceNumbers, WorkspaceSettings } from '../infra/documents/workspaces';
import { claim, claimOf, release } from '../infra/claims';
import type { SessionStore } from './sessions';

/**
 * Workspaces and their API keys. A workspace is read by its `_id` through a read that concurrent callers
 * share (infra/coalesced-reads.ts): calls and invitations read theirs at every step. A key is `hk_` and 32
 * random bytes, shown once and stored as its SHA-256 hash, under an `_id` derived from that hash, so
 * authentication is one exact `_id` read (on FerretDB any other filter scans the collection).
 */

const KEY_PREFIX = 'hk_';

const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');
/** A key's document id: a hash of its hash, so it says nothing of the key. */
const keyId = (hash: string) => keyedId('key', hash);

/** The claim that gives a provider's number to one workspace: one exact `_id`, whoever asks. */
const numberKey = (kind: NumberKind, id: string) => `number/${kind}/${id}`;
export type NumberKind = 'voice' | 'whatsapp';

/** What setNumbers did: the numbers set, or the number another workspace holds. */
export type NumbersSet =
  | { set: true }
  | { set: false; taken: NumberKind; by: string }
  | { set: false; missing: true }
  /** Another change of the workspace's numbers held its lock for longer than a change waits. */
  | { set: false; busy: true };

/** The holder of the service's own numbers' claims (no workspace id looks like it). */
export const SERVICE = 'service';
/** `settings`: the service's numbers as its processes last claimed them. */
const SERVICE_NUMBERS = 'service-numbers';

export interface NewWorkspace {
  name: string;
  company: string;
  senderFirstName: string;
  senderLastName: string;
}

export function workspaceStore(db: Database, { sessions }: { sessions: Pick<SessionStore, 'endAllOfKey'> }) {
  async function createKey(workspaceId: string): Promise<{ api_key: string; key_id: string }> {
    const workspace = await db.workspaces.findOne({ _id: workspaceId });
    if (!workspace) throw new Error(`No workspace ${workspaceId}`);
    const key = KEY_PREFIX + newToken(32);
    const hash = hashKey(key);
    const doc: ApiKeyDoc = {
      _id: keyId(hash),
      workspace_id: workspaceId,
      hash,
      prefix: key.slice(0, KEY_PREFIX.length + 6),
      created_at: new Date(),
      revoked_at: null,
    };
    await db.apiKeys.insertOne(doc);
    return { api_key: key, key_id: doc._id };
  }

  /** The workspace of a presented key and the key's id (a dashboard session remembers which key opened it). */
  async function authenticateKey(presented: string | undefined): Promise<{ workspace: Readonly<WorkspaceDoc>; keyId: string } | null> {
    if (!presented || !presented.startsWith(KEY_PREFIX) || presented.length > 200) return null;
    const hash = hashKey(presented);
    const key = await db.apiKeys.findOne({ _id: keyId(hash) });
    if (!key || key.revoked_at) return null;
    if (!timingSafeEqual(Buffer.from(key.hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
    const workspace = await db.shared.workspace(key.workspace_id);
    return workspace && { workspace, keyId: key._id };
  }

  return {
    /** A workspace, from a read shared with the callers that ask while another is in flight: not to be changed. */
    get: (id: string): Promise<Readonly<WorkspaceDoc> | null> => db.shared.workspace(id),

    /** The workspaces that keep candidates for a limited time (the daily sweep's few settings documents). */
    async withRetention(): Promise<Array<{ id: string; days: number }>> {
      const found = await db.workspaces.find({ 'settings.retention_days': { $gt: 0 } }, { projection: { _id: 1, settings: 1 } }).toArray();
      return found.map((w) => ({ id: w._id, days: w.settings!.retention_days! }));
    },

    async create(input: NewWorkspace): Promise<{ workspace_id: string; api_key: string }> {
      const workspace: WorkspaceDoc = {
        _id: newId('ws'),
        name: input.name,
        sender: { first_name: input.senderFirstName, last_name: input.senderLastName, company: input.company },
        created_at: new Date(),
      };
      // Before the first workspace, the database records that it holds no hash of an earlier label.
      await recordEarlierLabels(db);
      await db.workspaces.insertOne(workspace);
      const { api_key } = await createKey(workspace._id);
      return { workspace_id: workspace._id, api_key };
    },

    /** Changes a workspace's settings; false when there is no such workspace. */
    async updateSettings(workspaceId: string, settings: WorkspaceSettings): Promise<boolean> {
      const $set = Object.fromEntries(Object.entries(settings).map(([k, v]) => [`settings.${k}`, v]));
      const result = await db.workspaces.updateOne({ _id: workspaceId }, { $set });
      return result.matchedCount === 1;
    },

    /**
     * Gives the workspace its own numbers (null: the service's again). A voice or WhatsApp number is claimed
     * for the workspace first (an insert with the number as `_id`, so two workspaces asking at once cannot
     * both win), and the one it had before is given up once the new one is written.
     */
    async setNumbers(workspaceId: string, numbers: WorkspaceNumbers): Promise<NumbersSet> {
      // One change of a workspace's numbers at a time (a claim, exclusive on FerretDB too): two at once would
      // each give up the number read before the other's write, and leave a claim the document does not name.
      const lock = `numbers-change/${workspaceId}`;
      const mine = newToken(12);
      for (const until = Date.now() + NUMBERS_LOCK_WAIT_MS; ;) {
        if ((await claim(db, lock, mine, { expiresAt: new Date(Date.now() + NUMBERS_LOCK_LEASE_MS) })) === mine) break;
        if (Date.now() > until) return { set: false, busy: true };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      try {
        return await setNumbersAlone(db, workspaceId, numbers);
      } finally {
        await release(db, lock, mine);
      }
    },

    /** The workspace that owns this number of the operator's, or null (the service's own, or no one's). */
    async ofNumber(kind: NumberKind, id: string): Promise<string | null> {
      const holder = (await claimOf(db, numberKey(kind, id)))?.holder ?? null;
      return holder === SERVICE ? null : holder;
    },

    /**
     * Claims the service's own numbers (VAPI_PHONE_NUMBER_ID, WHATSAPP_PHONE_NUMBER_ID) for the service, as a
     * workspace's are claimed for it, so no workspace can be given one, whatever the environment of whoever
     * gives it (the admin CLI's may not name them); gives up those it claimed before under other ids (recorded
     * in `settings`). Every process does it as it starts. The kinds a workspace held already, and by whom.
     */
    async claimServiceNumbers(numbers: { voice?: string; whatsapp?: string }): Promise<Array<{ kind: NumberKind; by: string }>> {
      const before = await db.settings.findOne({ _id: SERVICE_NUMBERS });
      const earlier = before ? (JSON.parse(before.value) as { voice?: string; whatsapp?: string }) : {};
      const held: Array<{ kind: NumberKind; by: string }> = [];
      for (const kind of ['voice', 'whatsapp'] as const) {
        const id = numbers[kind];
        if (earlier[kind] && earlier[kind] !== id) await release(db, numberKey(kind, earlier[kind]!), SERVICE);
        if (!id) continue;
        const holder = await claim(db, numberKey(kind, id), SERVICE);
        if (holder !== SERVICE) held.push({ kind, by: holder });
      }
      await db.settings.updateOne({ _id: SERVICE_NUMBERS }, { $set: { value: JSON.stringify(numbers) } }, { upsert: true });
      return held;
    },

    /**
     * Marks the workspace as having a suppression list, so a workspace without one reads none at a contact. By
     * exact `_id` alone (any other filter field is a scan on FerretDB); filing is rare, and the write idempotent.
     */
    async markSuppressions(workspaceId: string): Promise<void> {
      await db.workspaces.updateOne({ _id: workspaceId }, { $set: { has_suppressions: true } });
    },

    createKey,

    /**
     * Revokes by key id or by the key itself, and ends the dashboard sessions it opened; returns whether a live
     * key was revoked. The sessions are ended even when the key was revoked already, so a revocation run again
     * finishes one that stopped halfway.
     */
    async revokeKey(ref: { keyId?: string; key?: string }): Promise<boolean> {
      const _id = ref.key ? keyId(hashKey(ref.key)) : (ref.keyId ?? '');
      const res = await db.apiKeys.updateOne({ _id, revoked_at: null }, { $set: { revoked_at: new Date() } });
      await sessions.endAllOfKey(_id);
      return res.modifiedCount === 1;
    },

    async listKeys(workspaceId: string) {
      const keys = await db.apiKeys.find({ workspace_id: workspaceId }).sort({ created_at: 1 }).toArray();
      return keys.map((k) => ({ key_id: k._id, prefix: k.prefix, created_at: k.created_at, revoked_at: k.revoked_at }));
    },

    /** Whether the key is there and not revoked (a dashboard session lives as long as the key that opened it). */
    async keyIsLive(id: string): Promise<boolean> {
      const key = await db.apiKeys.findOne({ _id: id });
      return !!key && !key.revoked_at;
    },

    /** Resolves a presented key to its workspace, or null. The stored hash is compared in constant time. */
    async authenticate(presented: string | undefined): Promise<Readonly<WorkspaceDoc> | null> {
      return (await authenticateKey(presented))?.workspace ?? null;
    },

    authenticateKey,
  };
}

export type WorkspaceStore = ReturnType<typeof workspaceStore>;

/** How long a change of a workspace's numbers waits for another one under way, and how long its lock holds. */
const NUMBERS_LOCK_WAIT_MS = 5_000;
const NUMBERS_LOCK_LEASE_MS = 30_000;

/** setNumbers, with the workspace's numbers lock held. */
async function setNumbersAlone(db: Database, workspaceId: string, numbers: WorkspaceNumbers): Promise<NumbersSet> {
  const workspace = await db.workspaces.findOne({ _id: workspaceId });
  if (!workspace) return { set: false, missing: true };
  const kinds = (['voice', 'whatsapp'] as const).filter((k) => typeof numbers[k] === 'string');
  const claimed: string[] = [];
  for (const kind of kinds) {
    const key = numberKey(kind, numbers[kind]!);
    const holder = await claim(db, key, workspaceId);
    if (holder !== workspaceId) {
      // Nothing is set: the numbers this call claimed afresh are given up again.
      for (const k of claimed) await release(db, k, workspaceId);
      return { set: false, taken: kind, by: holder };
    }
    if (workspace.numbers?.[kind] !== numbers[kind]) claimed.push(key);
  }
  const $set = Object.fromEntries(Object.entries(numbers).map(([k, v]) => [`numbers.${k}`, v]));
  await db.workspaces.updateOne({ _id: workspaceId }, { $set });
  for (const kind of ['voice', 'whatsapp'] as const) {
    const before = workspace.numbers?.[kind];
    if (before && numbers[kind] !== undefined && numbers[kind] !== before) await release(db, numberKey(kind, before), workspaceId);
  }
  return { set: true };
}
