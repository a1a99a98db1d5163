import { BSON, type Collection, type Filter, type UpdateFilter } from 'mongodb';
import { isDuplicateKey } from '../duplicate-key';
import { keyedId } from '../ids';
import { type Entry, type Position, type TimeIndex } from './time-index';

/**
 * One list of items (calls, interviews or projects) of a workspace, kept in the time index (time-index.ts):
 * - newest first by creation, under a key per workspace and one per (workspace, ats_job_id);
 * - the change feed, oldest change first, under a key per workspace.
 * Each entry carries the item's filter fields (ats_job_id, candidate_id, status, kind), so filters are decided
 * on the entries and only the items of the page are read, by exact `_id`, in parallel (from their snapshots
 * where they have one, below). Why this shape, with
 * the measurements that chose it: docs/lists.md.
 */

/** What an item of a list must have. */
export interface ListedItem {
  _id: string;
  workspace_id: string;
  ats_job_id: string;
  created_at: Date;
  updated_at: Date;
}

/** The filter fields an entry carries, as the list's spec derives them from an item. */
export type Fields = Record<string, string>;

/** An item as it was at its last change: its document as EJSON, one string (see `snapshots` below). */
export interface SnapshotDoc {
  _id: string;
  /** The item's `updated_at` (ms) in `j`: the version it is. */
  v: number;
  j: string;
}

export interface ListSpec<T extends ListedItem> {
  /** The list's name, part of its keys and of its cursors. */
  name: string;
  collection: Collection<T>;
  snapshots: Collection<SnapshotDoc>;
  fields(item: T): Fields;
  /**
   * Whether an item with these fields is settled: in a state it keeps a while (a call ended, an invitation
   * sent). Only settled items are kept as snapshots.
   */
  settled(fields: Fields): boolean;
}

export interface ListQuery {
  /** Exact matches on the entries' fields. */
  match: Fields;
  createdSince: Date | null;
  /** The change feed, oldest change first, from `after` or else from this time; null: newest first. */
  updatedSince: Date | null;
  limit: number;
  /** Where the previous page ended. */
  after: Position | null;
}

export interface ListPage<T> {
  items: T[];
  /** Where the next page starts; null when a newest-first list has nothing more. The feed always has one. */
  next: Position | null;
}

/**
 * A change is visible to the feed's readers only once it is this old: a writer whose entry took longer than
 * half of this to write writes it again with a later time, so a reader that stops this far behind the clock
 * never passes an entry that is still being written.
 */
export const FEED_SETTLE_MS = 2_000;
/**
 * The feed entry of a change is written before the item. A reader that finds the item not yet changed waits
 * (ends its page there) this long for the write to land; past it, the writer died and its retry writes the
 * change again, later in the feed.
 */
export const FEED_PENDING_MS = 30_000;
/** Entries one page may look at before it ends early with a cursor (rare filters over long lists). */
const SCAN_BUDGET = 20_000;

export interface ItemList<T extends ListedItem> {
  /**
   * New items: their entries in every list at their creation time, and in the feed at the time of this call
   * (see `created` below). Called before their workflows start, which make their next changes.
   */
  created(items: T[]): Promise<void>;
  /**
   * Changes `item`: its feed entry and its entries (with `next`, its fields once changed) first, so a change is
   * never missing from the feed (a reader waits for it to land); then `change(at)` applied to it, where `at`
   * must become its `updated_at`; then its snapshot if it is settled. Returns `at`, and the item as the write
   * left it (null when it is gone), which spares a caller reading it again (an announcement's view).
   */
  update(item: T, next: Partial<Fields>, change: (at: Date) => UpdateFilter<T>): Promise<{ at: Date; item: T | null }>;
  /**
   * A write that is not a change in the feed (an attempt's provider id or live status): the item and its
   * snapshot, and no entries. Returns the item as the write left it (null when it is gone).
   */
  touch(id: string, change: UpdateFilter<T>): Promise<T | null>;
  /** Items a request took back before it answered: out of the lists (readers skip their feed entries). */
  forget(items: T[]): Promise<void>;
  page(workspaceId: string, query: ListQuery): Promise<ListPage<T>>;
  /** Every entry of the (workspace, ats_job_id) list, with the version it stands for: a project's counts. */
  entriesOfJob(workspaceId: string, atsJobId: string): AsyncGenerator<Change>;
  /**
   * The feed's raw entries from `from` up to `until`, without reading any item: each change's fields as
   * written, and items taken back (`forget`) as `gone`. For tallies kept up to date from the feed.
   */
  changes(workspaceId: string, from: Position, until: number): AsyncGenerator<Change & { at: number }>;
}

/** One item's fields as an entry has them, and the version (`updated_at`, ms) they are of. */
export interface Change {
  id: string;
  fields: Fields;
  version: number;
  /** The item was taken back and no longer exists. */
  gone: boolean;
}

/**
 * An entry's value: the item's filter fields and `u`, the `updated_at` (ms) of the item as the entry has it;
 * `g` marks the feed entry of an item taken back.
 */
type Value = Fields & { u?: number; g?: 1 };
const changeOf = (e: Entry): Change => {
  const { u, g, ...fields } = JSON.parse(e.value) as Value;
  return { id: e.id, fields: fields as Fields, version: u ?? e.at, gone: g === 1 };
};

/**
 * Snapshots. FerretDB decodes a stored document field by field: reading 100 completed calls by `_id` costs it
 * about 80 core-ms, the same 100 kept as one string each about a third of that (docs/lists.md). So a settled
 * item is also stored as one EJSON string under its id, with its version (`updated_at`), by every write of it.
 * Entries carry the version they were written for, and a page uses a snapshot when it is that version or a
 * later one. Anything else (an item under way, a snapshot not written yet, its writer died, two writers of one
 * item left the older one) costs only speed: the item itself is read, and stored as the snapshot when it is
 * settled and the version wanted. Items under way are not stored: they change several times in a minute,
 * and a write of a snapshot costs about as much as the write of the item (docs/lists.md).
 */
export function itemList<T extends ListedItem>(index: TimeIndex, spec: ListSpec<T>): ItemList<T> {
  const keys = {
    all: (ws: string) => keyedId(spec.name, ws),
    job: (ws: string, job: string) => keyedId(spec.name, ws, 'ats_job_id', job),
    feed: (ws: string) => keyedId(`${spec.name}-feed`, ws),
  };
  /** An item's entries in its lists (at its creation time) and in the feed (at `at`), valued `value`. */
  const listed = (item: T, value: string): Entry[] => [
    { key: keys.all(item.workspace_id), id: item._id, at: item.created_at.getTime(), value },
    { key: keys.job(item.workspace_id, item.ats_job_id), id: item._id, at: item.created_at.getTime(), value },
  ];
  const fed = (item: T, value: string, at: number): Entry => ({ key: keys.feed(item.workspace_id), id: item._id, at, value });
  /**
   * Adds the entries `entries(at)`, whose feed entry is at `at`, the time of the write. Written late (a stalled
   * process): readers may have passed `at`, so they are added again, later, until a write is on time. Returns
   * the `at` that was.
   */
  const onTime = async (entries: (at: number) => Entry[]): Promise<number> => {
    for (;;) {
      const at = Date.now();
      await index.add(entries(at));
      if (Date.now() - at <= FEED_SETTLE_MS / 2) return at;
    }
  };
  const matches = (fields: Fields, match: Fields) => Object.entries(match).every(([k, v]) => fields[k] === v);
  const snapshotId = (id: string) => `${spec.name}|${id}`;
  const store = async (item: T) => {
    try {
      await spec.snapshots.replaceOne(
        { _id: snapshotId(item._id) },
        { v: item.updated_at.getTime(), j: BSON.EJSON.stringify(item) },
        { upsert: true },
      );
    } catch (err) {
      // Two writers upserting an item's first snapshot at once: one insert loses, and the other's snapshot
      // is as good (readers check its version).
      if (!isDuplicateKey(err)) throw err;
    }
  };
  /** The item at `version`: its snapshot, else the item itself (stored as the snapshot if it may be). */
  const readOne = async (id: string, version: number): Promise<T | null> => {
    const snapshot = await spec.snapshots.findOne({ _id: snapshotId(id) });
    // A later version than the entry's: the feed passes over the entry (the item changed since).
    if (snapshot && snapshot.v >= version) return BSON.EJSON.parse(snapshot.j) as T;
    const item = (await spec.collection.findOne({ _id: id } as Filter<T>)) as T | null;
    if (item?.updated_at.getTime() === version && spec.settled(spec.fields(item))) await store(item);
    return item;
  };
  /**
   * Pages start their reads as the walk finds the entries, so the reads overlap the walk's own reads of later
   * buckets. A page that ends early (or fails) leaves some unawaited: they are marked handled, so their failure
   * is no unhandled rejection (an awaited one still fails its page).
   */
  const read = (id: string, version: number): Promise<T | null> => {
    const reading = readOne(id, version);
    reading.catch(() => undefined);
    return reading;
  };

  async function newestFirst(ws: string, q: ListQuery): Promise<ListPage<T>> {
    const key = q.match.ats_job_id ? keys.job(ws, q.match.ats_job_id) : keys.all(ws);
    const hits: Array<Promise<T | null>> = [];
    let scanned = 0;
    let last: Position | null = null;
    let more = false;
    for await (const e of index.walk(key, 'desc', q.after)) {
      if (q.createdSince && e.at < q.createdSince.getTime()) break;
      const value = JSON.parse(e.value) as Value;
      if (hits.length === q.limit && matches(value, q.match)) {
        more = true;
        break;
      }
      if (++scanned > SCAN_BUDGET) {
        more = true;
        break;
      }
      last = e;
      if (matches(value, q.match)) hits.push(read(e.id, value.u ?? e.at));
    }
    const docs = (await Promise.all(hits)) as Array<T | null>;
    // An entry whose item is missing belongs to a request that was taken back before it answered. An entry is
    // written before its item's change, so the item itself decides whether it still matches (a writer that died
    // between the two left an entry ahead of its item).
    const items = docs.filter((d): d is T => d !== null && d.workspace_id === ws && matches(spec.fields(d), q.match));
    return { items, next: more && last ? { at: last.at, id: last.id } : null };
  }

  async function changesSince(ws: string, q: ListQuery): Promise<ListPage<T>> {
    const since = q.after ?? { at: q.updatedSince!.getTime() - 1, id: '\uffff' };
    const until = Date.now() - FEED_SETTLE_MS;
    const { status, ...onEntry } = q.match;
    const items: T[] = [];
    const shown = new Set<string>();
    let next: Position = since;
    let scanned = 0;
    /** An entry, the version of its item it stands for, and the read of that item when the entry matches. */
    type Found = { e: Entry; version: number; doc: Promise<T | null> | null };
    /** Decides entries in order; false once the page is full or must end. */
    const decide = async (found: Found[]): Promise<boolean> => {
      for (const { e, version, doc: reading } of found) {
        const doc = reading && (await reading);
        if (doc && doc.workspace_id === ws) {
          // The change is not written yet: the page ends before it, unless its writer is long gone.
          if (doc.updated_at.getTime() < version && Date.now() - e.at < FEED_PENDING_MS) return false;
          // Shown as it was at this change; an item changed since shows at its later change, further on.
          const wanted =
            doc.updated_at.getTime() === version &&
            !shown.has(e.id) &&
            (status === undefined || spec.fields(doc).status === status) &&
            (!q.createdSince || doc.created_at >= q.createdSince);
          if (wanted) {
            items.push(doc);
            shown.add(e.id);
          }
        }
        next = { at: e.at, id: e.id };
        if (items.length === q.limit) return false;
      }
      return true;
    };
    // Entries are taken in rounds of as many hits as the page still needs, so a page is only short at the end
    // of the feed (or after SCAN_BUDGET entries): an empty page means the reader has caught up. A round's items
    // are read as its entries are found.
    let round: Found[] = [];
    let hitsInRound = 0;
    for await (const e of index.walk(keys.feed(ws), 'asc', since, until)) {
      const value = JSON.parse(e.value) as Value;
      const version = value.u ?? e.at;
      const hit = matches(value, onEntry);
      round.push({ e, version, doc: hit ? read(e.id, version) : null });
      if (hit) hitsInRound++;
      if (++scanned >= SCAN_BUDGET || hitsInRound >= q.limit - items.length) {
        if (!(await decide(round)) || scanned >= SCAN_BUDGET) return { items, next };
        round = [];
        hitsInRound = 0;
      }
    }
    await decide(round);
    return { items, next };
  }

  return {
    async created(items) {
      const values = items.map((item) => JSON.stringify({ ...spec.fields(item), u: item.updated_at.getTime() }));
      // In the feed at the time they are listed, not at their `updated_at`: a request takes a while between
      // making its items and listing them, and a reader may have passed `updated_at` meanwhile. The entries'
      // `u` still names the version they stand for.
      let first = true;
      await onTime((at) => {
        const fedNow = items.map((item, i) => fed(item, values[i], at));
        if (!first) return fedNow;
        first = false;
        return [...items.flatMap((item, i) => listed(item, values[i])), ...fedNow];
      });
    },

    async update(item, next, change) {
      const before = spec.fields(item);
      const fields = { ...before, ...next } as Fields;
      // The lists' entries are written again when the fields move, and on any change of a settled item: the
      // version they carry must be exact wherever a snapshot may be used. A change of an item under way (an
      // attempt ended, a message sent) is in the feed only, and the lists read the item itself.
      const relist = spec.settled(before) || Object.keys(next).some((k) => next[k] !== before[k]);
      const at = await onTime((at) => {
        const value = JSON.stringify({ ...fields, u: at });
        // Entries are written whole (not only their value): an item its creator failed to list gets listed here.
        return [fed(item, value, at), ...(relist ? listed(item, value) : [])];
      });
      const filter = { _id: item._id } as Filter<T>;
      const changed = (await spec.collection.findOneAndUpdate(filter, change(new Date(at)), { returnDocument: 'after' })) as T | null;
      // Another writer's change landed after this one: the snapshot is theirs to store.
      if (spec.settled(fields) && changed?.updated_at.getTime() === at) await store(changed);
      return { at: new Date(at), item: changed };
    },

    async touch(id, change) {
      const after = (await spec.collection.findOneAndUpdate({ _id: id } as Filter<T>, change, { returnDocument: 'after' })) as T | null;
      if (after && spec.settled(spec.fields(after))) await store(after);
      return after;
    },

    async forget(items) {
      if (items.length === 0) return;
      // The tombstone tells tallies kept from the feed (project counts); pages skip it, as its item is gone.
      // Written beside the removal, not after it: a request taking items back during a database outage
      // waits for one failed write, not two (the chaos suite's outage scenario holds it to 5 s).
      await Promise.all([
        index.remove(items.flatMap((item) => listed(item, ''))),
        onTime((at) => items.map((item) => fed(item, JSON.stringify({ ...spec.fields(item), u: at, g: 1 }), at))),
      ]);
    },

    page: (ws, q) => (q.updatedSince ? changesSince(ws, q) : newestFirst(ws, q)),

    async *entriesOfJob(ws, job) {
      for await (const e of index.walk(keys.job(ws, job), 'desc', null)) yield changeOf(e);
    },

    async *changes(ws, from, until) {
      for await (const e of index.walk(keys.feed(ws), 'asc', from, until)) yield { ...changeOf(e), at: e.at };
    },
  };
}
