import type { Database } from '../infra/database';
import { insertOnce, isDuplicateKey } from '../infra/duplicate-key';
import { keyedId, newId } from '../infra/ids';
import { indexOf } from '../infra/lists/index-of';
import type { Position } from '../infra/lists/time-index';
import { normaliseEmail, whatsAppNumberForms, type Person } from '../infra/people';
import { personHashKeys, versionedKeys, versionedPrefix, type PersonHashKeys, type VersionedKey } from './person-keys';
import type { KeyedEntry, SuppressionDoc, SuppressionKeyDoc } from '../infra/documents/suppressions';
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

const listKey = (workspaceId: string) => `suppressions|${workspaceId}`;
/** A key's n-th slot: the first is named by the key itself, as the one document of a key was before slots. */
const slotId = (key: string, n: number) => (n === 0 ? key : `${key}/${n}`);
/** A bound on the slots of one key, so a fault cannot loop: far more entries than one person is ever filed under. */
const MAX_SLOTS = 10_000;
/** The entries a slot keeps in force. */
const liveIn = (slot: SuppressionKeyDoc): KeyedEntry[] => [
  ...(slot.entries ?? []),
  ...(slot.entry && !slot.removed_at ? [slot.entry] : []),
];

export function suppressionStore(
  db: Database,
  { workspaces, keys = personHashKeys(db, []) }: { workspaces: Pick<WorkspaceStore, 'markSuppressions'>; keys?: PersonHashKeys },
) {
  const keysUnder = (key: VersionedKey, workspaceId: string, person: Pick<Person, 'phone' | 'email'>) =>
    versionedKeys(key, 'sk', workspaceId, person, ['phone', 'email']);
  /** The key documents of a person in a workspace, under the current secret: the phone's, then the email's. */
  async function keysOf(workspaceId: string, person: Pick<Person, 'phone' | 'email'>): Promise<string[]> {
    return keysUnder(await keys.current('suppressions'), workspaceId, person);
  }
  /** The person's keys under every secret entries may have been filed with, one set per secret, the current first. */
  async function keySetsOf(workspaceId: string, person: Pick<Person, 'phone' | 'email'>): Promise<string[][]> {
    return (await keys.all('suppressions')).map((key) => keysUnder(key, workspaceId, person));
  }
  /** A key's slots, read in turn up to the first that does not exist (one read for a key never filed). */
  async function slotsOf(key: string): Promise<SuppressionKeyDoc[]> {
    const slots: SuppressionKeyDoc[] = [];
    for (let n = 0; n < MAX_SLOTS; n++) {
      const slot = await db.suppressionKeys.findOne({ _id: slotId(key, n) });
      if (!slot) break;
      slots.push(slot);
    }
    return slots;
  }
  /** The entries in force under each key. */
  const entriesUnder = (keys: string[]) => Promise.all(keys.map(async (k) => (await slotsOf(k)).flatMap(liveIn)));

  /**
   * Files the entry under the key, in the first free slot: an insert, which a filing at the same moment cannot
   * overwrite (it takes the next slot). `repeatable`: the entry's id may have been filed before (a retry of the
   * same id), so a taken slot is read to see whether it is this entry's.
   */
  async function fileUnder(key: string, workspaceId: string, entry: KeyedEntry, repeatable: boolean): Promise<void> {
    for (let n = 0; n < MAX_SLOTS; n++) {
      const _id = slotId(key, n);
      try {
        await db.suppressionKeys.insertOne({ _id, workspace_id: workspaceId, entry });
        return;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      if (!repeatable) continue;
      const slot = await db.suppressionKeys.findOne({ _id });
      if (slot?.entry?.id === entry.id || slot?.entries?.some((e) => e.id === entry.id)) return;
    }
    throw new Error(`more than ${MAX_SLOTS} suppressions under one key`);
  }

  /**
   * Takes the entry out of a key's slots. A slot is marked, never deleted, as the slots after it are found
   * through it; one written before slots has the entry taken out of its array.
   */
  async function takeOutOf(key: string, entryId: string): Promise<void> {
    for (const slot of await slotsOf(key)) {
      if (slot.entry?.id === entryId && !slot.removed_at)
        await db.suppressionKeys.updateOne({ _id: slot._id }, { $set: { removed_at: new Date() } });
      if (slot.entries?.some((e) => e.id === entryId))
        await db.suppressionKeys.updateOne({ _id: slot._id }, { $set: { entries: slot.entries.filter((e) => e.id !== entryId) } });
    }
  }

  /**
   * Takes an entry out: its slots first, so it stops being enforced before it stops being listed.
   */
  async function remove(entry: SuppressionDoc): Promise<void> {
    await Promise.all(entry.keys.map((k) => takeOutOf(k, entry._id)));
    await indexOf(db).remove([{ key: listKey(entry.workspace_id), id: entry._id, at: entry.created_at.getTime() }]);
    await db.suppressions.deleteOne({ _id: entry._id });
  }

  async function channelsFor(
    workspace: Pick<WorkspaceDoc, '_id' | 'has_suppressions'> | null,
    person: Pick<Person, 'phone' | 'email'>,
  ): Promise<Set<SuppressionChannel>> {
    const channels = new Set<SuppressionChannel>();
    if (!workspace?.has_suppressions) return channels;
    for (const entries of await entriesUnder((await keySetsOf(workspace._id, person)).flat())) {
      for (const e of entries) for (const c of e.channels) channels.add(c);
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
      const keyed = { id: stored._id, channels: stored.channels };
      await Promise.all(keys.map((k) => fileUnder(k, s.workspaceId, keyed, s.id !== undefined)));
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

    remove,

    /**
     * Files an entry again under the current secret's keys (`admin people:rekey`): under the new keys first,
     * then out of the old ones, so it is enforced throughout. `current` when its keys are the current ones;
     * `hashes-only` when it keeps nothing but its keys (an erasure's), which cannot be made again: its secret
     * must stay configured for it to keep matching.
     */
    async rekey(entry: SuppressionDoc): Promise<'rekeyed' | 'current' | 'hashes-only'> {
      if (entry.phone === null && entry.email === null) {
        const prefix = `${versionedPrefix('sk', (await keys.current('suppressions')).version)}_`;
        return entry.keys.every((k) => k.startsWith(prefix)) ? 'current' : 'hashes-only';
      }
      const fresh = await keysOf(entry.workspace_id, { phone: entry.phone, email: entry.email });
      if (fresh.length === entry.keys.length && fresh.every((k) => entry.keys.includes(k))) return 'current';
      const keyed = { id: entry._id, channels: entry.channels };
      await Promise.all(fresh.map((k) => fileUnder(k, entry.workspace_id, keyed, true)));
      await db.suppressions.updateOne({ _id: entry._id }, { $set: { keys: fresh } });
      await Promise.all(entry.keys.filter((k) => !fresh.includes(k)).map((k) => takeOutOf(k, entry._id)));
      return 'rekeyed';
    },

    /** Every entry, of one workspace or all, for an operator's command that walks them (people:rekey). */
    async *every(workspaceId: string | null): AsyncGenerator<SuppressionDoc> {
      yield* db.suppressions.find(workspaceId ? { workspace_id: workspaceId } : {}).sort({ _id: 1 });
    },

    /**
     * The id of the entry an email's unsubscribe link files, one per address and workspace: named by the email's
     * keyed hash, so the id says nothing of the address to anyone without the secret.
     */
    async emailLinkEntryId(workspaceId: string, email: string): Promise<string> {
      const [key] = await keysOf(workspaceId, { email });
      return keyedId('sup', workspaceId, 'email_link', key);
    },

    /**
     * An erasure's part of the list: the person's entries stay in force under their keys, and lose the phone and
     * email they were filed with. An unsubscribe link's entry filed before its id was keyed (a plain hash of the
     * address, which anyone can compute) is taken out: the erasure's own entry, filed first, refuses every channel.
     */
    async forgetPerson(workspaceId: string, person: { phones: string[]; emails: string[] }): Promise<void> {
      // Every form WhatsApp may have named the phone by (a STOP is filed under the sender's wa_id too).
      const phones = [...new Set(person.phones.flatMap(whatsAppNumberForms))];
      const keys = (
        await Promise.all([
          ...phones.map((phone) => keySetsOf(workspaceId, { phone })),
          ...person.emails.map((email) => keySetsOf(workspaceId, { email })),
        ])
      ).flat(2);
      const ids = new Set((await entriesUnder(keys)).flat().map((e) => e.id));
      const plainIds = new Set(person.emails.map((e) => keyedId('sup', workspaceId, 'email_link', normaliseEmail(e))));
      await Promise.all(
        [...ids].map(async (id) => {
          const entry = await db.suppressions.findOne({ _id: id });
          if (entry?.workspace_id !== workspaceId) return;
          if (plainIds.has(id)) return remove(entry);
          // Free text keeps its words only while the person is there: an API entry's reason (the workspace's
          // words about them) and a STOP's (their own reply). The other sources' reasons are ours.
          const reason = (entry.source === 'api' || entry.source === 'whatsapp') && entry.reason ? { reason: null } : {};
          if (entry.phone !== null || entry.email !== null || 'reason' in reason)
            await db.suppressions.updateOne({ _id: id }, { $set: { phone: null, email: null, ...reason } });
        }),
      );
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
        const sets = await keySetsOf(workspaceId, q);
        const ids = [...new Set((await entriesUnder(sets.flat())).flat().map((e) => e.id))];
        const entries = (await Promise.all(ids.map((id) => db.suppressions.findOne({ _id: id })))).filter(
          (e): e is SuppressionDoc =>
            !!e &&
            e.workspace_id === workspaceId &&
            sets.some((keys) => keys.every((k) => e.keys.includes(k))) &&
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
