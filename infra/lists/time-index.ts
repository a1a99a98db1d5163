import type { AnyBulkWriteOperation, Collection } from 'mongodb';

/**
 * Ordered lists that the service keeps itself, read and written only by exact `_id` (the one filter
 * FerretDB's SQLite backend answers from an index; it pushes down no range, sort or `$in`). A list is a key;
 * its entries are (time, item id, value) and live in one document per second of their time. Three levels of
 * marker documents say which seconds, hours and days hold entries, so a reader finds the next bucket in either
 * direction without probing empty time:
 *
 *   r|key              { m: { t<day>: 1 } }
 *   d|key|<day>        { m: { t<hour>: 1 } }
 *   h|key|<hour>       { m: { t<second>: 1 } }
 *   b|key|<second>     { e: { <item id>: "<ms>|<value>" } }
 *
 * Every write is a `$set` of a named field, so writing an entry or a marker again changes nothing: a retried
 * step writes nothing twice, and writers never race. Markers are never removed, so each process remembers the
 * ones it has written and skips them (measured in docs/lists.md).
 */
export interface IndexDoc {
  _id: string;
  e?: Record<string, string>;
  m?: Record<string, 1>;
}

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

const SECOND = 1_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Buckets read at once while walking a list. */
const PARALLEL_BUCKETS = 16;

const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const bucketId = (key: string, at: number) => `b|${key}|${floorTo(at, SECOND)}`;
const marker = (start: number) => `m.t${start}`;

export function comparePositions(a: Position, b: Position): number {
  return a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export interface TimeIndex {
  /** Writes the entries and their markers in one unordered bulk round trip. */
  add(entries: Entry[]): Promise<void>;
  /** Removes entries (their markers stay: an empty bucket is only read past). */
  remove(entries: Entry[]): Promise<void>;
  /**
   * The list's entries strictly past `from`, newest first (`desc`) or oldest first (`asc`), lazily, a bucket
   * batch at a time. `asc` stops before `until`.
   */
  walk(key: string, dir: 'asc' | 'desc', from: Position | null, until?: number): AsyncGenerator<Entry>;
}

export function timeIndex(collection: Collection<IndexDoc>): TimeIndex {
  const written = new Set<string>();

  /** The markers of `at` in `key` not yet known to be written, as (doc id, field) pairs. */
  function markersOf(key: string, at: number): Array<[string, string]> {
    const sec = floorTo(at, SECOND);
    const hour = floorTo(at, HOUR);
    const day = floorTo(at, DAY);
    const all: Array<[string, string]> = [
      [`h|${key}|${hour}`, marker(sec)],
      [`d|${key}|${day}`, marker(hour)],
      [`r|${key}`, marker(day)],
    ];
    return all.filter(([doc, field]) => !written.has(`${doc}#${field}`));
  }

  function bucketOps(entries: Entry[]): AnyBulkWriteOperation<IndexDoc>[] {
    const byBucket = new Map<string, Record<string, string>>();
    for (const e of entries) {
      const id = bucketId(e.key, e.at);
      const set = byBucket.get(id) ?? {};
      set[`e.${e.id}`] = `${e.at}|${e.value}`;
      byBucket.set(id, set);
    }
    return [...byBucket].map(([id, set]) => ({ updateOne: { filter: { _id: id }, update: { $set: set }, upsert: true } }));
  }

  async function ids(docId: string): Promise<number[]> {
    const doc = await collection.findOne({ _id: docId });
    return Object.keys(doc?.m ?? {}).map((k) => Number(k.slice(1)));
  }

  return {
    async add(entries) {
      if (entries.length === 0) return;
      // One write per document: its markers together, so no document is upserted twice in one bulk.
      const markers = new Map<string, Record<string, 1>>();
      for (const e of entries) for (const [doc, field] of markersOf(e.key, e.at)) markers.set(doc, { ...markers.get(doc), [field]: 1 });
      const markerOps = [...markers].map(([doc, set]): AnyBulkWriteOperation<IndexDoc> => ({
        updateOne: { filter: { _id: doc }, update: { $set: set }, upsert: true },
      }));
      await collection.bulkWrite([...bucketOps(entries), ...markerOps], { ordered: false });
      // Only once the write is known to be done may it be skipped.
      if (written.size > 100_000) written.clear();
      for (const [doc, set] of markers) for (const field of Object.keys(set)) written.add(`${doc}#${field}`);
    },

    async remove(entries) {
      if (entries.length === 0) return;
      const byBucket = new Map<string, Record<string, ''>>();
      for (const e of entries) byBucket.set(bucketId(e.key, e.at), { ...byBucket.get(bucketId(e.key, e.at)), [`e.${e.id}`]: '' });
      await collection.bulkWrite(
        [...byBucket].map(([id, unset]) => ({ updateOne: { filter: { _id: id }, update: { $unset: unset } } })),
        { ordered: false },
      );
    },

    async *walk(key, dir, from, until = Infinity) {
      const sign = dir === 'asc' ? 1 : -1;
      const order = (xs: number[]) => xs.sort((a, b) => sign * (a - b));
      // A unit starting at `start` can hold entries past `from` when it does not end before it (asc) or
      // start after it (desc).
      const reaches = (start: number, unit: number) =>
        (!from || (dir === 'asc' ? start + unit > from.at : start <= from.at)) && start < until;
      for (const day of order(await ids(`r|${key}`)).filter((d) => reaches(d, DAY))) {
        for (const hour of order(await ids(`d|${key}|${day}`)).filter((h) => reaches(h, HOUR))) {
          const seconds = order(await ids(`h|${key}|${hour}`)).filter((s) => reaches(s, SECOND));
          for (let i = 0; i < seconds.length; i += PARALLEL_BUCKETS) {
            const docs = await Promise.all(seconds.slice(i, i + PARALLEL_BUCKETS).map((s) => collection.findOne({ _id: `b|${key}|${s}` })));
            for (const doc of docs) {
              const entries = Object.entries(doc?.e ?? {}).map(([id, v]): Entry => {
                const bar = v.indexOf('|');
                return { key, id, at: Number(v.slice(0, bar)), value: v.slice(bar + 1) };
              });
              entries.sort((a, b) => sign * comparePositions(a, b));
              for (const e of entries) {
                if (from && sign * comparePositions(e, from) <= 0) continue;
                if (e.at >= until) return;
                yield e;
              }
            }
          }
        }
      }
    },
  };
}
