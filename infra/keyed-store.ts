import type { Collection, Filter, MatchKeysAndValues, OptionalUnlessRequiredId } from 'mongodb';
import { isDuplicateKey } from './duplicate-key';

/**
 * A collection addressed only by exact `_id` (the one filter FerretDB's SQLite backend answers from an index),
 * for adapters that keep documents of their own: the simulator's calls, the log providers' messages. They
 * declare the part they use as a port; this is its MongoDB implementation.
 */
export interface KeyedStore<T extends { _id: string }> {
  /** Stores `doc`; false when one with its `_id` is there already (a retried write), which is left as it is. */
  insertOnce(doc: T): Promise<boolean>;
  get(id: string): Promise<T | null>;
  set(id: string, fields: Partial<T>): Promise<void>;
  /** Deletes the document; false when there was none. */
  remove(id: string): Promise<boolean>;
}

export function keyedStore<T extends { _id: string }>(collection: Collection<T>): KeyedStore<T> {
  const byId = (id: string) => ({ _id: id }) as Filter<T>;
  return {
    async insertOnce(doc) {
      try {
        await collection.insertOne(doc as OptionalUnlessRequiredId<T>);
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        return false;
      }
    },
    get: (id) => collection.findOne(byId(id)) as Promise<T | null>,
    async set(id, fields) {
      await collection.updateOne(byId(id), { $set: fields as MatchKeysAndValues<T> });
    },
    remove: async (id) => (await collection.deleteOne(byId(id))).deletedCount === 1,
  };
}
