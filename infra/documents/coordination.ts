/** Stored claims and limit entries: how processes agree without transactions. */

/** An exclusive claim on a key (infra/claims.ts). */
export interface ClaimDoc {
  _id: string;
  holder: string;
  /** A claim that outlives this (its holder died) may be taken over; null for claims that never expire. */
  expires_at: Date | null;
  created_at: Date;
}

/** One entry of a limit's count in one window (stores/limits.ts). */
export interface LimitEntryDoc {
  _id: string;
  /** What the limit counts under (`<workspace>/<name>`…); entries from before this name say `bucket`. */
  key: string;
  window_start: Date;
  /** What the window has taken, this entry included (a give-back is an entry that takes its amount back). */
  total: number;
  /** Past this the document is only history; a TTL index removes it on MongoDB. */
  expires_at: Date;
}
