import type { Database } from '../infra/database';
import { insertOnce } from '../infra/duplicate-key';
import { newId } from '../infra/ids';
import { indexOf } from '../infra/lists/index-of';
import type { Position } from '../infra/lists/time-index';
import { normaliseEmail, personKeys, type Person } from '../infra/people';
import { sharedKey } from '../infra/shared-keys';
import type { SuppressionDoc } from '../infra/documents/suppressions';
import type { WorkspaceDoc } from '../infra/documents/workspaces';
import { SUPPRESSION_CHANNELS, type SuppressionChannel, type SuppressionSource } from '../shared/suppressions/schema';
import type { WorkspaceStore } from './workspaces';

/**
 * The suppression list (docs/contact-rules.md). Entries are filed under one key document per (workspace, phone)
 * and (workspace, email), named by a keyed hash (infra/people.ts), so a check is a read by exact `_id` (the one
 * lookup FerretDB answers from an index) and an erasure's entry, which keeps only its keys, holds nothing that
 * can be read back or tried against a list of numbers without that secret. Entries are listed newest first in
 * the time index of infra/lists/ (docs/lists.md), valued by their source.
 */

export interface NewSuppression extends Pick<Person, 'phone' | 'email'> {
  workspaceId: string;
  channels: readonly SuppressionChannel[];
  source: SuppressionSource;
  reason?: string | null;
  /** For a source that may say the same thing twice (a redelivered webhook): the same id, one entry. */
  id?: string;
}

export type SuppressionQuery = Pick<Person, 'phone' | 'email'> & { source?: SuppressionSource; limit: number; after: Position | null };

/** The `settings` name of the secret its keys are hashed with: named when the list was a ledger, and kept, as keys depend on it. */
const KEY_SECRET = 'suppression-ledger-key';
const listKey = (workspaceId: string) => `suppressions|${workspaceId}`;

export function suppressionStore(db: Database, { workspaces }: { workspaces: Pick<WorkspaceStore, 'markSuppressions'> }) {
  /** The key documents of a person in a workspace: the phone's, then the email's, for those given. */
  async function keysOf(workspaceId: string, person: Pick<Person, 'phone' | 'email'>): Promise<string[]> {
    return personKeys(await sharedKey(db, KEY_SECRET), 'sk', workspaceId, person, ['phone', 'email']);
  }
  const readKeys = (keys: string[]) => Promise.all(keys.map((k) => db.suppressionKeys.findOne({ _id: k })));

  async function channelsFor(
    workspace: Pick<WorkspaceDoc, '_id' | 'has_suppressions'> | null,
    person: Pick<Person, 'phone' | 'email'>,
  ): Promise<Set<SuppressionChannel>> {
    const channels = new Set<SuppressionChannel>();
    if (!workspace?.has_suppressions) return channels;
    for (const doc of await readKeys(await keysOf(workspace._id, person))) {
      for (const e of doc?.entries ?? []) for (const c of e.channels) channels.add(c);
    }
    return channels;
  }

  return {
    keysOf,

    /**
     * Files an entry: the entry, then its place in the list, then the workspace marked as having a list, then
     * its keys (what is enforced). Each step may be repeated, so a retry with the same `id` completes what a
     * failure left half done.
     */
    async add(s: NewSuppression): Promise<SuppressionDoc> {
      const keys = await keysOf(s.workspaceId, s);
      const hashesOnly = s.source === 'erasure';
      const entry: SuppressionDoc = {
        _id: s.id ?? newId('sup'),
        workspace_id: s.workspaceId,
        phone: hashesOnly ? null : (s.phone ?? null),
        email: hashesOnly || !s.email ? null : normaliseEmail(s.email),
        keys,
        channels: SUPPRESSION_CHANNELS.filter((c) => s.channels.includes(c)),
        source: s.source,
        reason: s.reason ?? null,
        created_at: new Date(),
      };
      await insertOnce(db.suppressions, entry);
      const stored = s.id ? ((await db.suppressions.findOne({ _id: entry._id })) ?? entry) : entry;
      await indexOf(db).add([{ key: listKey(s.workspaceId), id: stored._id, at: stored.created_at.getTime(), value: stored.source }]);
      await workspaces.markSuppressions(s.workspaceId);
      await Promise.all(
        keys.map((k) =>
          db.suppressionKeys.updateOne(
            { _id: k },
            { $setOnInsert: { workspace_id: s.workspaceId }, $addToSet: { entries: { id: stored._id, channels: stored.channels } } },
            { upsert: true },
          ),
        ),
      );
      return stored;
    },

    /** The entry of the workspace with this id, or null (another workspace's is as missing). */
    async get(workspaceId: string, id: string): Promise<SuppressionDoc | null> {
      const entry = await db.suppressions.findOne({ _id: id });
      return entry?.workspace_id === workspaceId ? entry : null;
    },

    /** Entries by id, whatever their workspace; missing ones left out. */
    async getMany(ids: string[]): Promise<SuppressionDoc[]> {
      const found = await Promise.all(ids.map((id) => db.suppressions.findOne({ _id: id })));
      return found.filter((e): e is SuppressionDoc => e !== null);
    },

    /** Takes an entry out: its keys first, so it stops being enforced before it stops being listed. */
    async remove(entry: SuppressionDoc): Promise<void> {
      await Promise.all(entry.keys.map((k) => db.suppressionKeys.updateOne({ _id: k }, { $pull: { entries: { id: entry._id } } })));
      await indexOf(db).remove([{ key: listKey(entry.workspace_id), id: entry._id, at: entry.created_at.getTime() }]);
      await db.suppressions.deleteOne({ _id: entry._id });
    },

    /**
     * The channels on which the person must not be contacted in the workspace: read at every contact. A
     * workspace that has never had an entry is known from its own document, which the caller has read, and
     * costs nothing more.
     */
    channelsFor,

    /** For each person, whether the workspace's list refuses `channel` for them (a bulk request's check). */
    async refuses(
      workspace: Pick<WorkspaceDoc, '_id' | 'has_suppressions'>,
      people: Array<Pick<Person, 'phone' | 'email'>>,
      channel: SuppressionChannel,
    ): Promise<boolean[]> {
      if (!workspace.has_suppressions) return people.map(() => false);
      return Promise.all(people.map(async (p) => (await channelsFor(workspace, p)).has(channel)));
    },

    /**
     * A page of the workspace's entries, newest first. Filtered by phone or email, the entries are those filed
     * under its keys (a handful); otherwise the list is walked, and a source filter decided on its entries.
     */
    async page(workspaceId: string, q: SuppressionQuery): Promise<{ items: SuppressionDoc[]; next: Position | null }> {
      const before = (e: { at: number; id: string }) => !q.after || e.at < q.after.at || (e.at === q.after.at && e.id < q.after.id);
      if (q.phone || q.email) {
        const keys = await keysOf(workspaceId, q);
        const ids = [...new Set((await readKeys(keys)).flatMap((d) => d?.entries.map((e) => e.id) ?? []))];
        const entries = (await Promise.all(ids.map((id) => db.suppressions.findOne({ _id: id })))).filter(
          (e): e is SuppressionDoc =>
            !!e &&
            e.workspace_id === workspaceId &&
            keys.every((k) => e.keys.includes(k)) &&
            (!q.source || e.source === q.source) &&
            before({ at: e.created_at.getTime(), id: e._id }),
        );
        entries.sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a._id < b._id ? 1 : -1));
        const items = entries.slice(0, q.limit);
        const last = items.at(-1);
        return { items, next: entries.length > q.limit && last ? { at: last.created_at.getTime(), id: last._id } : null };
      }
      const found: Array<{ at: number; id: string }> = [];
      let more = false;
      for await (const e of indexOf(db).walk(listKey(workspaceId), 'desc', q.after)) {
        if (q.source && e.value !== q.source) continue;
        if (found.length === q.limit) {
          more = true;
          break;
        }
        found.push({ at: e.at, id: e.id });
      }
      const items = (await Promise.all(found.map((f) => db.suppressions.findOne({ _id: f.id })))).filter(
        (e): e is SuppressionDoc => !!e && e.workspace_id === workspaceId,
      );
      const last = found.at(-1);
      return { items, next: more && last ? last : null };
    },
  };
}

export type SuppressionStore = ReturnType<typeof suppressionStore>;
