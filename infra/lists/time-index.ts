import type { Collection } from 'mongodb';
import { cellLogs, type CellDoc } from './cell-log';

/**
 * Ordered lists that the service keeps itself, read and written only by exact `_id` (the one filter FerretDB's
 * SQLite backend answers from an index; it pushes down no range, sort or `$in`). A list is a key; its entries
 * are (time, item id, value), kept in an append-only log per second of their time (cell-log.ts). Marker logs
 * say which seconds of a minute, minutes of an hour, hours of a day and days of a 32-day span hold entries, and
 * a root log which spans do, so a reader finds the next bucket in either direction without probing empty time:
 *
 *   m|key                    spans that hold entries
 *   m<level>|key|<start>     the units below `level` within the unit starting at `start` that hold entries
 *   b|key|<second>           the entries of one second: [at, id, value], or [at, id, null] to remove one
 *
 * Within a bucket the last entry of an item wins, so changing an entry is appending it again, and writing
 * one twice (a retried step) changes nothing. Markers are never removed, so each process remembers the ones it
 * has written and skips them; another process writing one again only adds a duplicate that readers fold away.
 */
export interface Entry {
  key: string;
  id: string;
  /** Milliseconds since the epoch: the entry's place in its list. */
  at: number;
  value: string;
}

/** A place in a list: strictly before or after an entry, by (at, id). */
export interface Position {
  at: number;
  id: string;
}

/** Unit lengths, finest first: a second, a minute, an hour, a day and a 32-day span. */
const UNITS = [1_000, 60_000, 3_600_000, 86_400_000, 32 * 86_400_000];
const TOP = UNITS.length - 1;
/** Buckets read at once, at most, while walking a list. */
const PARALLEL_BUCKETS = 16;
/** Markers a process remembers having written; past this it forgets them all (and may write some again). */
const REMEMBERED = 100_000;

const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const bucketLog = (key: string, at: number) => `b|${key}|${floorTo(at, UNITS[0])}`;
/** The log listing the units of `level - 1` inside the unit of `level` that starts at `start`. */
const markerLog = (key: string, level: number, start: number) => (level > TOP ? `m|${key}` : `m${level}|${key}|${start}`);

export function comparePositions(a: Position, b: Position): number {
  return a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export interface TimeIndex {
  /** Writes the entries and their markers, each log's in one append. */
  add(entries: Entry[]): Promise<void>;
  /** Removes entries (their markers stay: an empty bucket is only read past). */
  remove(entries: Array<Omit<Entry, 'value'>>): Promise<void>;
  /**
   * The list's entries strictly past `from`, newest first (`desc`) or oldest first (`asc`), lazily, a bucket
   * batch at a time. `asc` stops before `until`.
   */
  walk(key: string, dir: 'asc' | 'desc', from: Position | null, until?: number): AsyncGenerator<Entry>;
}

export function timeIndex(collection: Collection<CellDoc>): TimeIndex {
  const logs = cellLogs(collection);
  const written = new Set<string>();

  /** One append per log; the cell logs write those of one call together, in one insert (cell-log.ts). */
  async function append(byLog: Map<string, string[]>, markers: Map<string, Set<string>>): Promise<void> {
    // Together: an entry whose marker is not written yet is only unseen until add() returns, and a feed reader
    // stays FEED_SETTLE_MS behind the clock (item-list.ts).
    await Promise.all([
      ...[...byLog].map(([log, lines]) => logs.append(log, lines)),
      ...[...markers].map(([log, units]) => logs.append(log, [...units])),
    ]);
    if (written.size > REMEMBERED) written.clear();
    for (const [log, units] of markers) for (const unit of units) written.add(`${log}#${unit}`);
  }

  function write(entries: Array<{ key: string; id: string; at: number; value: string | null }>): Promise<void> {
    const byLog = new Map<string, string[]>();
    const markers = new Map<string, Set<string>>();
    for (const e of entries) {
      const log = bucketLog(e.key, e.at);
      const lines = byLog.get(log) ?? [];
      if (lines.length === 0) byLog.set(log, lines);
      lines.push(JSON.stringify([e.at, e.id, e.value]));
      for (let level = 1; level <= UNITS.length; level++) {
        const marker = markerLog(e.key, level, level > TOP ? 0 : floorTo(e.at, UNITS[level]));
        const unit = String(floorTo(e.at, UNITS[level - 1]));
        if (written.has(`${marker}#${unit}`)) continue;
        markers.set(marker, (markers.get(marker) ?? new Set()).add(unit));
      }
    }
    return append(byLog, markers);
  }

  /** The units a marker log lists, once each, in walking order. */
  async function units(log: string, sign: number): Promise<number[]> {
    return [...new Set((await logs.read(log)).map(Number))].sort((a, b) => sign * (a - b));
  }

  /** A bucket's live entries: each item's last entry, unless that removes it. */
  async function bucket(key: string, second: number): Promise<Entry[]> {
    const last = new Map<string, Entry | null>();
    for (const line of await logs.read(bucketLog(key, second))) {
      const [at, id, value] = JSON.parse(line) as [number, string, string | null];
      last.set(id, value === null ? null : { key, id, at, value });
    }
    return [...last.values()].filter((e): e is Entry => e !== null);
  }

  return {
    add: (entries) => (entries.length === 0 ? Promise.resolve() : write(entries)),

    remove: (entries) => (entries.length === 0 ? Promise.resolve() : write(entries.map((e) => ({ ...e, value: null })))),

    async *walk(key, dir, from, until = Infinity) {
      const sign = dir === 'asc' ? 1 : -1;
      // A unit starting at `start` can hold entries past `from` when it does not end before it (asc) or
      // start after it (desc).
      const reaches = (start: number, unit: number) =>
        (!from || (dir === 'asc' ? start + unit > from.at : start <= from.at)) && start < until;

      /** The seconds holding entries within the unit of `level` starting at `start`, in walking order. */
      async function* seconds(level: number, start: number): AsyncGenerator<number> {
        for (const unit of await units(markerLog(key, level, start), sign)) {
          if (!reaches(unit, UNITS[level - 1])) continue;
          if (level === 1) yield unit;
          else yield* seconds(level - 1, unit);
        }
      }

      let batch: number[] = [];
      async function* flush(): AsyncGenerator<Entry> {
        const buckets = await Promise.all(batch.map((s) => bucket(key, s)));
        batch = [];
        for (const entries of buckets) {
          entries.sort((a, b) => sign * comparePositions(a, b));
          for (const e of entries) {
            if (from && sign * comparePositions(e, from) <= 0) continue;
            if (e.at >= until) return true;
            yield e;
          }
        }
        return false;
      }
      // One bucket first, then twice as many each time up to PARALLEL_BUCKETS: a page that one busy second
      // fills reads (and parses) that second only.
      let size = 1;
      for await (const second of seconds(UNITS.length, 0)) {
        batch.push(second);
        if (batch.length < size) continue;
        if (yield* flush()) return;
        size = Math.min(size * 2, PARALLEL_BUCKETS);
      }
      yield* flush();
    },
  };
}
