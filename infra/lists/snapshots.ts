import { BSON, type Filter } from 'mongodb';
import { isDuplicateKey } from '../duplicate-key';
import type { ListedItem, ListSpec } from './list-spec';

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
export function snapshots<T extends ListedItem>(spec: ListSpec<T>) {
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

  return { store, read };
}
