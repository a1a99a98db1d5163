/** Stored claims and rate-limit grants: how processes agree without transactions. */

/** An exclusive claim on a key (infra/claims.ts). */
export interface ClaimDoc {
  _id: string;
  holder: string;
  /** A claim that outlives this (its holder died) may be taken over; null for claims that never expire. */
  expires_at: Date | null;
  created_at: Date;
}

/** One entry of a fixed-window budget's ledger (infra/rate-limit.ts). */
export interface RateLimitDoc {
  _id: string;
  bucket: string;
  window_start: Date;
  /** What the window has granted, this entry included (a refund is an entry that takes its amount back). */
  total: number;
  /** Past this the document is only history; a TTL index removes it on MongoDB. */
  expires_at: Date;
}
