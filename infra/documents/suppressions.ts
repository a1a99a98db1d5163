import type { SuppressionChannel, SuppressionSource } from '../../shared/suppressions/schema';

/**
 * The suppression list (stores/suppressions.ts). An entry is what was asked; a key document is what is enforced:
 * one per (workspace, phone) and (workspace, email), named by a keyed hash of it, so every check is a read by
 * exact `_id` and an erased person's entry keeps nothing readable.
 */
export interface SuppressionDoc {
  _id: string;
  workspace_id: string;
  /** E.164; null when the entry has none, and for an erasure. */
  phone: string | null;
  /** Lower case; null when the entry has none, and for an erasure. */
  email: string | null;
  /** The key documents the entry is filed under. */
  keys: string[];
  channels: SuppressionChannel[];
  source: SuppressionSource;
  reason: string | null;
  created_at: Date;
}

/** One entry filed under a key, with its channels. */
export interface KeyedEntry {
  id: string;
  channels: SuppressionChannel[];
}

/**
 * A slot of a key: the key's first slot is named by the key itself, the n-th after it `<key>/<n>`. Each holds
 * one entry, inserted once under its own `_id`, so filings at the same moment each take a slot of their own and
 * never overwrite each other (FerretDB's updates are unisolated read-then-writes). The key suppresses the union
 * of its live slots' channels.
 */
export interface SuppressionKeyDoc {
  _id: string;
  workspace_id: string;
  entry?: KeyedEntry;
  /** The entry was taken out: the slot stays, so the slots after it are still read. */
  removed_at?: Date;
  /** A first slot written before slots: every entry of the key in one array, read and taken out as such. */
  entries?: KeyedEntry[];
}
