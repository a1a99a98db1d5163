import { asUnavailable } from './unavailable';
import {
  MongoBulkWriteError,
  MongoServerError,
  type AnyBulkWriteOperation,
  type Collection,
  type Document,
  type OptionalId,
  type OptionalUnlessRequiredId,
} from 'mongodb';

/** The server's answer when a unique index (most often `_id`) refused a write. */
export function isDuplicateKey(err: unknown): boolean {
  return err instanceof MongoServerError && err.code === 11000;
}

/** What became of one document or operation of a bulk write. */
export type WriteResult = 'written' | 'duplicate' | 'error';

/**
 * Writes `ops` in one unordered bulk round trip and tells, per operation, whether it was written, refused by a
 * unique index, or failed otherwise. Any other failure of the whole command marks every operation `error`:
 * which of them the server applied is then unknown. A database that cannot be reached throws instead
 * (ServiceUnavailableError): the request is then a 503, and what it may have written is resolved by its
 * retry (a recorded call is started, a claim without one is taken over).
 */
export async function bulkWriteEach<T extends Document>(
  collection: Collection<T>,
  ops: AnyBulkWriteOperation<T>[],
): Promise<WriteResult[]> {
  if (ops.length === 0) return [];
  // FerretDB 1.24 (SQLite) never answers an unordered bulk of 100 or more updates (80 took 29 ms, measured
  // 2026-11-25); inserts are not affected. Updates go in bulks of UPDATE_BULK, one after another.
  if (ops.length > UPDATE_BULK && ops.some((op) => !('insertOne' in op))) {
    const results: WriteResult[] = [];
    for (let i = 0; i < ops.length; i += UPDATE_BULK) results.push(...(await bulkWriteEach(collection, ops.slice(i, i + UPDATE_BULK))));
    return results;
  }
  try {
    await collection.bulkWrite(ops, { ordered: false });
    return ops.map(() => 'written');
  } catch (err) {
    const down = asUnavailable(err);
    if (down) throw down;
    return resultsOf(err, ops.length);
  }
}

/** Updates per bulk write, at most (bulkWriteEach). */
const UPDATE_BULK = 50;

/** insertMany, unordered, in one round trip, with a result per document as bulkWriteEach gives. */
export function insertEach<T extends Document>(collection: Collection<T>, docs: OptionalId<T>[]): Promise<WriteResult[]> {
  return bulkWriteEach(
    collection,
    docs.map((document) => ({ insertOne: { document } })),
  );
}

/** Inserts a document whose `_id` is its idempotency key; one that is there already is left as it is. */
export async function insertOnce<T extends Document>(collection: Collection<T>, doc: OptionalUnlessRequiredId<T>): Promise<void> {
  try {
    await collection.insertOne(doc);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

function resultsOf(err: unknown, count: number): WriteResult[] {
  const writeErrors = err instanceof MongoBulkWriteError ? [err.writeErrors].flat() : [];
  // No per-write errors (the command failed, or only the write concern did): every write is uncertain.
  if (writeErrors.length === 0) return Array.from({ length: count }, () => 'error');
  const results: WriteResult[] = Array.from({ length: count }, () => 'written');
  for (const e of writeErrors) results[e.index] = e.code === 11000 ? 'duplicate' : 'error';
  return results;
}
