import type { Entry, Position, TimeIndex } from './time-index';
import {
  FEED_PENDING_MS,
  FEED_SETTLE_MS,
  listKeys,
  matches,
  type ListedItem,
  type ListPage,
  type ListQuery,
  type ListSpec,
  type Value,
} from './list-spec';

/** Entries one page may look at before it ends early with a cursor (rare filters over long lists). */
const MAX_SCANNED = 20_000;

/**
 * A list's pages: newest first by creation (per workspace, or per job), and the change feed, oldest change
 * first. Filters are decided on the entries; only a page's items are read, by `read` (snapshots.ts).
 */
export function listPages<T extends ListedItem>(
  index: TimeIndex,
  spec: ListSpec<T>,
  read: (id: string, version: number) => Promise<T | null>,
) {
  const keys = listKeys(spec.name);
  async function newestFirst(ws: string, q: ListQuery): Promise<ListPage<T>> {
    const key = q.match.ats_job_id ? keys.job(ws, q.match.ats_job_id) : keys.all(ws);
    const hits: Array<Promise<T | null>> = [];
    let scanned = 0;
    let last: Position | null = null;
    let more = false;
    for await (const e of index.walk(key, 'desc', q.after)) {
      if (q.createdSince && e.at < q.createdSince.getTime()) break;
      const value = JSON.parse(e.value) as Value;
      if (hits.length === q.limit && matches(value, q.match)) {
        more = true;
        break;
      }
      if (++scanned > MAX_SCANNED) {
        more = true;
        break;
      }
      last = e;
      if (matches(value, q.match)) hits.push(read(e.id, value.u ?? e.at));
    }
    const docs = (await Promise.all(hits)) as Array<T | null>;
    // An entry whose item is missing belongs to a request that was taken back before it answered. An entry is
    // written before its item's change, so the item itself decides whether it still matches (a writer that died
    // between the two left an entry ahead of its item).
    const items = docs.filter((d): d is T => d !== null && d.workspace_id === ws && matches(spec.fields(d), q.match));
    return { items, next: more && last ? { at: last.at, id: last.id } : null };
  }

  async function changesSince(ws: string, q: ListQuery): Promise<ListPage<T>> {
    const since = q.after ?? { at: q.updatedSince!.getTime() - 1, id: '\uffff' };
    const until = Date.now() - FEED_SETTLE_MS;
    const { status, ...onEntry } = q.match;
    const items: T[] = [];
    const shown = new Set<string>();
    let next: Position = since;
    let scanned = 0;
    /** An entry, the version of its item it stands for, and the read of that item when the entry matches. */
    type Found = { e: Entry; version: number; doc: Promise<T | null> | null };
    /** Decides entries in order; false once the page is full or must end. */
    const decide = async (found: Found[]): Promise<boolean> => {
      for (const { e, version, doc: reading } of found) {
        const doc = reading && (await reading);
        if (doc && doc.workspace_id === ws) {
          // The change is not written yet: the page ends before it, unless its writer is long gone.
          if (doc.updated_at.getTime() < version && Date.now() - e.at < FEED_PENDING_MS) return false;
          // Shown as it was at this change; an item changed since shows at its later change, further on.
          const wanted =
            doc.updated_at.getTime() === version &&
            !shown.has(e.id) &&
            (status === undefined || spec.fields(doc).status === status) &&
            (!q.createdSince || doc.created_at >= q.createdSince);
          if (wanted) {
            items.push(doc);
            shown.add(e.id);
          }
        }
        next = { at: e.at, id: e.id };
        if (items.length === q.limit) return false;
      }
      return true;
    };
    // Entries are taken in rounds of as many hits as the page still needs, so a page is only short at the end
    // of the feed (or after MAX_SCANNED entries): an empty page means the reader has caught up. A round's items
    // are read as its entries are found.
    let round: Found[] = [];
    let hitsInRound = 0;
    for await (const e of index.walk(keys.feed(ws), 'asc', since, until)) {
      const value = JSON.parse(e.value) as Value;
      const version = value.u ?? e.at;
      const hit = matches(value, onEntry);
      round.push({ e, version, doc: hit ? read(e.id, version) : null });
      if (hit) hitsInRound++;
      if (++scanned >= MAX_SCANNED || hitsInRound >= q.limit - items.length) {
        if (!(await decide(round)) || scanned >= MAX_SCANNED) return { items, next };
        round = [];
        hitsInRound = 0;
      }
    }
    await decide(round);
    return { items, next };
  }

  return { newestFirst, changesSince };
}
