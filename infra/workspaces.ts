import { createHash, timingSafeEqual } from 'node:crypto';
import type { Database } from './database';
import { keyedId, newId, newToken } from './ids';
import { endSessionsOfKey } from './sessions';
import type { WorkspaceDoc, ApiKeyDoc, WorkspaceSettings } from './records/workspaces';

const KEY_PREFIX = 'hk_';

function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * A key's record id, derived from its hash, so authentication is one exact `_id` read (on FerretDB any other
 * filter scans the collection); the id says nothing of the key, being a hash of its hash.
 */
function keyId(hash: string): string {
  return keyedId('key', hash);
}

export interface NewWorkspace {
  name: string;
  company: string;
  senderFirstName: string;
  senderLastName: string;
}

export async function createWorkspace(db: Database, input: NewWorkspace): Promise<{ workspace_id: string; api_key: string }> {
  const workspace: WorkspaceDoc = {
    _id: newId('ws'),
    name: input.name,
    sender: { first_name: input.senderFirstName, last_name: input.senderLastName, company: input.company },
    created_at: new Date(),
  };
  await db.workspaces.insertOne(workspace);
  const { api_key } = await createApiKey(db, workspace._id);
  return { workspace_id: workspace._id, api_key };
}

/** Changes a workspace's settings; false when there is no such workspace. */
export async function updateWorkspaceSettings(db: Database, workspaceId: string, settings: WorkspaceSettings): Promise<boolean> {
  const $set = Object.fromEntries(Object.entries(settings).map(([k, v]) => [`settings.${k}`, v]));
  const result = await db.workspaces.updateOne({ _id: workspaceId }, { $set });
  return result.matchedCount === 1;
}

export async function createApiKey(db: Database, workspaceId: string): Promise<{ api_key: string; key_id: string }> {
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

/**
 * Revokes by key id or by the key itself, and ends the dashboard sessions it opened; returns whether a live
 * key was revoked. The sessions are ended even when the key was revoked already, so a revocation run again
 * finishes one that stopped halfway.
 */
export async function revokeApiKey(db: Database, ref: { keyId?: string; key?: string }): Promise<boolean> {
  const _id = ref.key ? keyId(hashKey(ref.key)) : (ref.keyId ?? '');
  const res = await db.apiKeys.updateOne({ _id, revoked_at: null }, { $set: { revoked_at: new Date() } });
  await endSessionsOfKey(db, _id);
  return res.modifiedCount === 1;
}

export async function listApiKeys(db: Database, workspaceId: string) {
  const keys = await db.apiKeys.find({ workspace_id: workspaceId }).sort({ created_at: 1 }).toArray();
  return keys.map((k) => ({ key_id: k._id, prefix: k.prefix, created_at: k.created_at, revoked_at: k.revoked_at }));
}

/** Resolves a presented key to its workspace, or null. The stored hash is compared in constant time. */
export async function authenticate(db: Database, presented: string | undefined): Promise<Readonly<WorkspaceDoc> | null> {
  return (await authenticateKey(db, presented))?.workspace ?? null;
}

/** The workspace of a presented key and the key's id (a dashboard session remembers which key opened it). */
export async function authenticateKey(
  db: Database,
  presented: string | undefined,
): Promise<{ workspace: Readonly<WorkspaceDoc>; keyId: string } | null> {
  if (!presented || !presented.startsWith(KEY_PREFIX) || presented.length > 200) return null;
  const hash = hashKey(presented);
  const key = await db.apiKeys.findOne({ _id: keyId(hash) });
  if (!key || key.revoked_at) return null;
  if (!timingSafeEqual(Buffer.from(key.hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  const workspace = await db.shared.workspace(key.workspace_id);
  return workspace && { workspace, keyId: key._id };
}
