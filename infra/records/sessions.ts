/**
 * A dashboard session: a workspace's person exchanged an API key for it at sign-in (infra/sessions.ts). The
 * cookie holds a random token; the database keeps only its SHA-256, as the `_id`. Each session has its own
 * CSRF token, which its forms carry.
 */
export interface SessionDoc {
  _id: string;
  workspace_id: string;
  csrf: string;
  created_at: Date;
  expires_at: Date;
}
