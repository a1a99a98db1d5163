/**
 * The first response to a request sent with an Idempotency-Key, kept 24 hours to answer its retries with.
 * `_id` is derived from the workspace and the key (infra/ids.ts keyedId), so a key is the workspace's own
 * and is found by exact `_id`.
 */
export interface IdempotencyDoc {
  _id: string;
  workspace_id: string;
  /** SHA-256 of the request's method, path and body: a key sent with another request is refused. */
  fingerprint: string;
  status: number;
  content_type: string;
  /** The response body, as the bytes that were sent. */
  body: string;
  created_at: Date;
  expires_at: Date;
}
