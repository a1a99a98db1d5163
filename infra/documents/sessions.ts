/**
 * A dashboard session: a workspace's person exchanged an API key for it at sign-in (stores/sessions.ts). The
 * cookie holds a random token; the database keeps only its SHA-256, as the `_id`. Each session has its own
 * CSRF token, which its forms carry. It lives as long as the key that opened it, and no longer than its
 * absolute and idle limits.
 */
export interface SessionDoc {
  _id: string;
  workspace_id: string;
  /** The API key it was opened with: revoking the key ends the session. */
  key_id: string;
  csrf: string;
  created_at: Date;
  /** When it was last used, to the minute: a session idle for SESSION_IDLE_MINUTES has ended. */
  last_seen_at: Date;
  expires_at: Date;
}
