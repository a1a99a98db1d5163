import type { Collection } from 'mongodb';
import { insertEach, type WriteResult } from '../duplicate-key';
import { asUnavailable } from '../unavailable';

/**
 * Append-only logs kept in `_id`-keyed documents, safe for any number of writers on FerretDB. A log `L` is the
 * documents `L|0`, `L|1`, … Each holds the entries of one append, and is inserted once and never changed.
 *
 * Why inserts and not `$set`s into one document: FerretDB 1.x applies an update by reading the document and
 * writing it back whole, outside any transaction, so two writers setting *different* fields of one document
 * lose one another's write (seen in the lists test: 2 runs in 5). An insert of a new `_id` is atomic on FerretDB
 * and MongoDB alike: of two writers of one cell, exactly one wins, and the other takes the next cell.
 *
 * A writer inserts cell n only once it knows cell n-1 exists, so the written cells are always 0..k with no gap,
 * and a reader reads until the first missing cell. Appends of one process wait for the write in flight and
 * then go together (group commit): those of one log in its next cell, and the next cells of every log with
 * appends waiting in one unordered insert. 50 calls changing at once make a few inserts, not 50 writers racing
 * for cells; a change of a call, which appends to the feed and to two lists, is one insert, not three.
 */
export interface CellDoc {
  _id: string;
  e: string[];
}

export interface CellLog {
  /** Appends the entries to the log; resolves once they are stored. */
  append(log: string, entries: string[]): Promise<void>;
  /** Every entry of the log, in the order appended. */
  read(log: string): Promise<string[]>;
}

interface Pending {
  entries: string[];
  resolve(): void;
  reject(err: unknown): void;
}

/** Logs whose next free cell a process remembers; past this, the longest unused are forgotten. */
const REMEMBERED = 50_000;
/** Cells read at once when a log's length is unknown; each further batch doubles. */
const FIRST_READ = 4;
/** Entries of read cells a process keeps. */
const CACHED_ENTRIES = 200_000;

const size = (cells: string[][]) => cells.reduce((n, e) => n + e.length, 0);

export function cellLogs(collection: Collection<CellDoc>): CellLog {
  const next = new Map<string, number>();
  const queues = new Map<string, Pending[]>();
  const cache = new Map<string, string[][]>();
  let cached = 0;

  const remember = (log: string, cell: number) => {
    next.delete(log);
    next.set(log, cell);
    if (next.size > REMEMBERED) next.delete(next.keys().next().value!);
  };

  /**
   * The log's cells. Cells never change once written, so each process keeps those it has read (up to
   * CACHED_ENTRIES entries, the longest unread forgotten first) and reads only past them: a walk over a list
   * that has not changed costs one missing read per log.
   */
  async function cells(log: string): Promise<string[][]> {
    const found = cache.get(log) ?? [];
    // Out of the cache (and its count) while reading past it; back in, at the newest end, below.
    cache.delete(log);
    cached -= size(found);
    for (let batch = found.length > 0 ? 1 : FIRST_READ; ; batch *= 2) {
      const start = found.length;
      const docs = await Promise.all(Array.from({ length: batch }, (_, i) => collection.findOne({ _id: `${log}|${start + i}` })));
      const missing = docs.indexOf(null);
      for (const doc of missing < 0 ? docs : docs.slice(0, missing)) found.push(doc!.e);
      if (missing >= 0) break;
    }
    // Two reads of one log at once each keep what they read; the later one stays.
    const prior = cache.get(log);
    if (prior) cached -= size(prior);
    cache.set(log, found);
    cached += size(found);
    for (const [old, entries] of cache) {
      if (cached <= CACHED_ENTRIES) break;
      cache.delete(old);
      cached -= size(entries);
    }
    return found;
  }

  /** Whether a write is in flight or about to start: appends meanwhile wait for the next one. */
  let writing = false;

  /**
   * Writes the waiting appends, a round at a time, until none are left: each round inserts the next cell of
   * every log with appends waiting, in one unordered command. A cell another process wrote first sends its
   * log's appends to the next round, at the log's end as counted afresh. One runs at a time.
   */
  async function write(): Promise<void> {
    try {
      await rounds();
    } catch (err) {
      // Not expected (each round settles its appends): what waits is failed rather than left waiting.
      writing = false;
      failAll([], err);
    }
  }
  async function rounds(): Promise<void> {
    // The write ends in the same step as the look that finds no append waiting. Ended a step later (in
    // write's own `finally`), an append made in between by a caller of the last round (its continuation runs
    // first) found a write still going, and waited for the next one to start: for good, in a process that
    // appended nothing more (a request through a quiet API process hung).
    for (;;) {
      if (queues.size === 0) {
        writing = false;
        return;
      }
      const round = [...queues];
      queues.clear();
      const at = round.map(([log]) => next.get(log) ?? 0);
      const docs = round.map(([log, batch], i) => ({ _id: `${log}|${at[i]}`, e: batch.flatMap((p) => p.entries) }));
      let results: WriteResult[];
      try {
        results = await insertEach(collection, docs);
      } catch (err) {
        // The database cannot be reached (ServiceUnavailableError): every append of the round fails.
        failAll(round, err);
        continue;
      }
      await Promise.all(
        round.map(async ([log, batch], i) => {
          const cell = at[i];
          try {
            if (results[i] === 'written') {
              remember(log, cell + 1);
              for (const p of batch) p.resolve();
              return;
            }
            // Unknown whether it was written (the command failed as a whole, or this document did).
            if (results[i] === 'error') throw new Error(`cell ${docs[i]._id} could not be written`);
            // Another process wrote it: counted again (reading only past the cells this process has seen).
            remember(log, Math.max(cell + 1, (await cells(log)).length));
            queues.set(log, [...batch, ...(queues.get(log) ?? [])]);
          } catch (err) {
            next.delete(log);
            for (const p of batch) p.reject(err);
            // A count that could not be read for the database's outage fails the waiting appends as well: a
            // chaos run's call/initiate, queued behind such a read (3 s of server selection), then waited as
            // long again for its own round, and answered its 503 after 6.2 s.
            if (asUnavailable(err)) failAll([], err);
          }
        }),
      );
    }
  }

  /**
   * Fails `round` and every append that arrived while it was written, whose own round would only wait out the
   * same outage again (server selection, 3 s), doubling their wait for a 503.
   */
  function failAll(round: Array<[string, Pending[]]>, err: unknown): void {
    for (const [log, batch] of [...round, ...queues]) {
      next.delete(log);
      for (const p of batch) p.reject(err);
    }
    queues.clear();
  }

  return {
    append(log, entries) {
      return new Promise<void>((resolve, reject) => {
        const queue = queues.get(log);
        if (queue) queue.push({ entries, resolve, reject });
        else queues.set(log, [{ entries, resolve, reject }]);
        if (writing) return;
        writing = true;
        // After the current task: the appends one change makes to several logs go in the same round.
        queueMicrotask(() => void write());
      });
    },

    async read(log) {
      return (await cells(log)).flat();
    },
  };
}
