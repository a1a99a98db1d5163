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
  // FerretDB 1.24 (SQLite) stops answering when several bulks of updates are in flight at once: 4 unordered
  // bulks of 50 `$addToSet`s (from 4 concurrent requests), 8 of 50 on separate documents, 32 of 10, or one of
  // 100, all hang for good; 32 × 50 single updates, and inserts in any of those shapes, do not (measured
  // 2026-11-25, scripts/bench/ferretdb-bulk-updates.ts). So updates go one command each, side by side.
  if (ops.some((op) => !('insertOne' in op))) return Promise.all(ops.map((op) => writeOne(collection, op)));
  try {
    await collection.bulkWrite(ops, { ordered: false });
    return ops.map(() => 'written');
  } catch (err) {
    const down = asUnavailable(err);
    if (down) throw down;
    return resultsOf(err, ops.length);
  }
}

/** One operation as its own command, with its result as bulkWriteEach gives it. */
async function writeOne<T extends Document>(collection: Collection<T>, op: AnyBulkWriteOperation<T>): Promise<WriteResult> {
  try {
    if ('updateOne' in op) await collection.updateOne(op.updateOne.filter, op.updateOne.update, { upsert: op.updateOne.upsert });
    else await collection.bulkWrite([op]);
    return 'written';
  } catch (err) {
    const down = asUnavailable(err);
    if (down) throw down;
    return isDuplicateKey(err) ? 'duplicate' : 'error';
  }
}

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
