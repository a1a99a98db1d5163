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

export interface SuppressionKeyDoc {
  _id: string;
  workspace_id: string;
  /** Every entry filed under this key, with its channels: the key suppresses their union. */
  entries: Array<{ id: string; channels: SuppressionChannel[] }>;
}
