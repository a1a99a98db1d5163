import type { Collection, Document, OptionalId } from 'mongodb';
import { insertEach, type WriteResult } from './duplicate-key';
import { ServiceUnavailableError } from '../shared/errors';

/**
 * Inserts of one collection that arrive while another is in flight go together in the next, as one unordered
 * insertMany (group commit). FerretDB writes each command in a transaction of its own, one at a time: 50
 * provider reports inserted at once each waited about 47 ms (median) behind the others; grouped, they are two
 * commands. An insert that arrives alone goes at once, so nothing waits for a timer.
 *
 * Each caller learns what became of its own document: `written`, `duplicate` (its `_id` was there), or
 * `error` (unknown: the command failed as a whole, and the document may or may not be stored). A database that
 * cannot be reached rejects every insert of the group (ServiceUnavailableError, from insertEach), and those
 * that waited behind it too: their own command would only wait out the same outage again (server selection,
 * 3 s), doubling their wait for a 503.
 */
export function groupedInserts<T extends Document>(collection: Collection<T>): (doc: OptionalId<T>) => Promise<WriteResult> {
  interface Waiting {
    doc: OptionalId<T>;
    resolve(result: WriteResult): void;
    reject(err: unknown): void;
  }
  /** The inserts waiting for the one in flight; null when none is in flight. */
  let queue: Waiting[] | null = null;

  async function drain(waiting: Waiting[]): Promise<void> {
    while (waiting.length > 0) {
      const group = waiting.splice(0);
      try {
        const results = await insertEach(
          collection,
          group.map((w) => w.doc),
        );
        group.forEach((w, i) => w.resolve(results[i]));
      } catch (err) {
        const failed = err instanceof ServiceUnavailableError ? [...group, ...waiting.splice(0)] : group;
        for (const w of failed) w.reject(err);
      }
    }
    queue = null;
  }

  return (doc) =>
    new Promise<WriteResult>((resolve, reject) => {
      if (queue) return void queue.push({ doc, resolve, reject });
      queue = [{ doc, resolve, reject }];
      void drain(queue);
    });
}
