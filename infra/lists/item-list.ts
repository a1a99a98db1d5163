import type { Collection, Filter } from 'mongodb';
import { keyedId } from '../ids';
import { type Entry, type Position, type TimeIndex } from './time-index';

/**
 * One list of items (calls, interviews or projects) of a workspace, kept in the time index (time-index.ts):
 * - newest first by creation, under a key per workspace and one per (workspace, ats_job_id);
 * - the change feed, oldest change first, under a key per workspace.
 * Each entry carries the item's filter fields (ats_job_id, candidate_id, status, kind), so filters are decided
 * on the entries and only the items of the page are read, by exact `_id`, in parallel. Why this shape, with
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

export interface ListSpec<T extends ListedItem> {
  /** The list's name, part of its keys and of its cursors. */
  name: string;
  collection: Collection<T>;
  fields(item: T): Fields;
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
  /** New items: their entries in every list and in the feed, at their creation time. Before the items. */
  created(items: T[]): Promise<void>;
  /**
   * A change of `item` that is about to be written (its fields once changed, given as `next`): its feed entry,
   * and its new fields on its entries. Returns the time the item's `updated_at` must be set to. Before the
   * item's own write, so a change is never missing from the feed (a reader waits for it to land).
   */
  changed(item: T, next?: Partial<Fields>): Promise<Date>;
  /** Items a request took back before it answered: out of the lists (readers skip their feed entries). */
  forget(items: T[]): Promise<void>;
  page(workspaceId: string, query: ListQuery): Promise<ListPage<T>>;
  /** Every entry of the (workspace, ats_job_id) list: the counts of a project. */
  fieldsOfJob(workspaceId: string, atsJobId: string): AsyncGenerator<Fields>;
}

export function itemList<T extends ListedItem>(index: TimeIndex, spec: ListSpec<T>): ItemList<T> {
  const keys = {
    all: (ws: string) => keyedId(spec.name, ws),
    job: (ws: string, job: string) => keyedId(spec.name, ws, 'ats_job_id', job),
    feed: (ws: string) => keyedId(`${spec.name}-feed`, ws),
  };
  /** An item's entries in its lists and in the feed, with its fields written once as the entries' value. */
  const listed = (item: T, value: string, at: number): Entry[] => [
    { key: keys.all(item.workspace_id), id: item._id, at, value },
    { key: keys.job(item.workspace_id, item.ats_job_id), id: item._id, at, value },
  ];
  const fed = (item: T, value: string, at: number): Entry => ({ key: keys.feed(item.workspace_id), id: item._id, at, value });

  const matches = (value: string, match: Fields) => {
    const fields = JSON.parse(value) as Fields;
    return Object.entries(match).every(([k, v]) => fields[k] === v);
  };
  const readAll = (ids: string[]): Promise<Array<T | null>> =>
    Promise.all(ids.map(async (id) => (await spec.collection.findOne({ _id: id } as Filter<T>)) as T | null));

  async function newestFirst(ws: string, q: ListQuery): Promise<ListPage<T>> {
    const key = q.match.ats_job_id ? keys.job(ws, q.match.ats_job_id) : keys.all(ws);
    const hits: Entry[] = [];
    let scanned = 0;
    let last: Position | null = null;
    let more = false;
    for await (const e of index.walk(key, 'desc', q.after)) {
      if (q.createdSince && e.at < q.createdSince.getTime()) break;
      if (hits.length === q.limit && matches(e.value, q.match)) {
        more = true;
        break;
      }
      if (++scanned > SCAN_BUDGET) {
        more = true;
        break;
      }
      last = e;
      if (matches(e.value, q.match)) hits.push(e);
    }
    const docs = await readAll(hits.map((e) => e.id));
    // An entry whose item is missing belongs to a request that was taken back before it answered. An entry is
    // written before its item's change, so the item itself decides whether it still matches (a writer that died
    // between the two left an entry ahead of its item).
    const items = docs.filter(
      (d): d is T => d !== null && d.workspace_id === ws && Object.entries(q.match).every(([k, v]) => spec.fields(d)[k] === v),
    );
    return { items, next: more && last ? { at: last.at, id: last.id } : null };
  }

  async function changesSince(ws: string, q: ListQuery): Promise<ListPage<T>> {
    const since = q.after ?? { at: q.updatedSince!.getTime() - 1, id: '\uffff' };
    const until = Date.now() - FEED_SETTLE_MS;
    const { status, ...onEntry } = q.match;
    const seen: Entry[] = [];
    const hits = new Set<Entry>();
    // Each item's last change in the page: it is shown there, and only there.
    const lastHit = new Map<string, Entry>();
    for await (const e of index.walk(keys.feed(ws), 'asc', since, until)) {
      seen.push(e);
      if (matches(e.value, onEntry)) {
        hits.add(e);
        lastHit.set(e.id, e);
      }
      if (hits.size >= q.limit || seen.length >= SCAN_BUDGET) break;
    }
    const docs = new Map((await readAll([...lastHit.keys()])).flatMap((d) => (d ? [[d._id, d] as const] : [])));
    const items: T[] = [];
    let next: Position = since;
    for (const e of seen) {
      const doc = docs.get(e.id);
      if (hits.has(e) && doc && doc.workspace_id === ws) {
        // The change is not written yet: the page ends before it, unless its writer is long gone.
        if (doc.updated_at.getTime() < e.at && Date.now() - e.at < FEED_PENDING_MS) break;
        const wanted =
          lastHit.get(e.id) === e &&
          (status === undefined || spec.fields(doc).status === status) &&
          (!q.createdSince || doc.created_at >= q.createdSince) &&
          doc.updated_at.getTime() >= e.at;
        if (wanted) items.push(doc);
      }
      next = { at: e.at, id: e.id };
    }
    return { items, next };
  }

  return {
    async created(items) {
      await index.add(
        items.flatMap((item) => {
          const at = item.created_at.getTime();
          const value = JSON.stringify(spec.fields(item));
          return [...listed(item, value, at), fed(item, value, at)];
        }),
      );
    },

    async changed(item, next = {}) {
      const before = spec.fields(item);
      const value = JSON.stringify({ ...before, ...next });
      const moved = Object.keys(next).some((k) => next[k] !== before[k]);
      for (;;) {
        const at = Date.now();
        // A moved item's entries are written whole (not only their value): an item its creator failed to list
        // gets listed here.
        await index.add([fed(item, value, at), ...(moved ? listed(item, value, item.created_at.getTime()) : [])]);
        // Written late (a stalled process): readers may have passed `at`, so the change goes in again, later.
        if (Date.now() - at <= FEED_SETTLE_MS / 2) return new Date(at);
      }
    },

    forget: (items) => index.remove(items.flatMap((item) => listed(item, '', item.created_at.getTime()))),

    page: (ws, q) => (q.updatedSince ? changesSince(ws, q) : newestFirst(ws, q)),

    async *fieldsOfJob(ws, job) {
      for await (const e of index.walk(keys.job(ws, job), 'desc', null)) yield JSON.parse(e.value) as Fields;
    },
  };
}
