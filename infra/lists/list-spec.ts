import type { Collection } from 'mongodb';
import { keyedId } from '../ids';
import type { Entry, Position } from './time-index';

/** What a list (item-list.ts) is made of: its items' shape, its spec, its queries and its entries' values. */

/** What an item of a list must have. */
export interface ListedItem {
  _id: string;
  workspace_id: string;
  ats_job_id: string;
  created_at: Date;
  updated_at: Date;
}

/** The filter fields an entry carries, as the list's spec derives them from an item. */
export type Fields = Record<string, string>;

/** An item as it was at its last change: its document as EJSON, one string (see `snapshots` below). */
export interface SnapshotDoc {
  _id: string;
  /** The item's `updated_at` (ms) in `j`: the version it is. */
  v: number;
  j: string;
}

export interface ListSpec<T extends ListedItem> {
  /** The list's name, part of its keys and of its cursors. */
  name: string;
  collection: Collection<T>;
  snapshots: Collection<SnapshotDoc>;
  fields(item: T): Fields;
  /**
   * Whether an item with these fields is settled: in a state it keeps a while (a call ended, an invitation
   * sent). Only settled items are kept as snapshots.
   */
  settled(fields: Fields): boolean;
}

export interface ListQuery {
  /** Exact matches on the entries' fields. */
  match: Fields;
  createdSince: Date | null;
  /** The change feed, oldest change first, from `after` or else from this time; null: newest first. */
  updatedSince: Date | null;
  limit: number;
  /** Where the previous page ended. */
  after: Position | null;
}

export interface ListPage<T> {
  items: T[];
  /** Where the next page starts; null when a newest-first list has nothing more. The feed always has one. */
  next: Position | null;
}

/**
 * A change is visible to the feed's readers only once it is this old: a writer whose entry took longer than
 * half of this to write writes it again with a later time, so a reader that stops this far behind the clock
 * never passes an entry that is still being written.
 */
export const FEED_SETTLE_MS = 2_000;
/**
 * The feed entry of a change is written before the item. A reader that finds the item not yet changed waits
 * (ends its page there) this long for the write to land; past it, the writer died and its retry writes the
 * change again, later in the feed.
 */
export const FEED_PENDING_MS = 30_000;

/** One item's fields as an entry has them, and the version (`updated_at`, ms) they are of. */
export interface Change {
  id: string;
  fields: Fields;
  version: number;
  /** The item was taken back and no longer exists. */
  gone: boolean;
}

/**
 * An entry's value: the item's filter fields and `u`, the `updated_at` (ms) of the item as the entry has it;
 * `g` marks the feed entry of an item taken back.
 */
export type Value = Fields & { u?: number; g?: 1 };
export const changeOf = (e: Entry): Change => {
  const { u, g, ...fields } = JSON.parse(e.value) as Value;
  return { id: e.id, fields: fields as Fields, version: u ?? e.at, gone: g === 1 };
};

/** The keys of a list's entries: newest first per workspace and per (workspace, ats_job_id), and its feed. */
export function listKeys(name: string) {
  return {
    all: (ws: string) => keyedId(name, ws),
    job: (ws: string, job: string) => keyedId(name, ws, 'ats_job_id', job),
    feed: (ws: string) => keyedId(`${name}-feed`, ws),
  };
}

/** Whether an entry's or an item's fields match every field of `match`. */
export const matches = (fields: Fields, match: Fields) => Object.entries(match).every(([k, v]) => fields[k] === v);
