import type { Filter, UpdateFilter } from 'mongodb';
import type { Entry, Position, TimeIndex } from './time-index';
import {
  changeOf,
  FEED_SETTLE_MS,
  listKeys,
  type Change,
  type Fields,
  type ListedItem,
  type ListPage,
  type ListQuery,
  type ListSpec,
} from './list-spec';
import { snapshots } from './snapshots';
import { listPages } from './list-pages';

export * from './list-spec';

/**
 * One list of items (calls, interviews or projects) of a workspace, kept in the time index (time-index.ts):
 * - newest first by creation, under a key per workspace and one per (workspace, ats_job_id);
 * - the change feed, oldest change first, under a key per workspace.
 * Each entry carries the item's filter fields (ats_job_id, candidate_id, status, kind), so filters are decided
 * on the entries and only the items of the page are read, by exact `_id`, in parallel (from their snapshots
 * where they have one, snapshots.ts). Why this shape, with
 * the measurements that chose it: docs/lists.md.
 */

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

export function itemList<T extends ListedItem>(index: TimeIndex, spec: ListSpec<T>): ItemList<T> {
  const keys = listKeys(spec.name);
  const { store, read } = snapshots(spec);
  const { newestFirst, changesSince } = listPages(index, spec, read);
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
