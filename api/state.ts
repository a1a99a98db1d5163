import type { WorkspaceDoc } from '../infra/documents/workspaces';
import type { LimitDecision } from '../stores/limits';

/**
 * What the API's middleware leaves on a request (`ctx.state`), typed once for every route through Koa's
 * `DefaultState`: the caller's workspace (every route of a public router: api/public-router.ts authenticates
 * first), a callback's raw body, the answer an Idempotency-Key keeps, the AI limit's decision.
 */
declare module 'koa' {
  interface DefaultState {
    /** The caller's workspace, from its API key (api/middleware.ts authenticateWith). */
    workspace: Readonly<WorkspaceDoc>;
    /** The id of the caller's API key (what a review records as made by it). */
    apiKeyId: string;
    /** The presented key's workspace and id (null: none), when it was looked up before routing (traceRequests). */
    authenticated?: { workspace: Readonly<WorkspaceDoc>; keyId: string } | null;
    /** A provider callback's body as the bytes its signature covers (api/middleware.ts readRawBody). */
    rawBody: Buffer;
    /** The answer an Idempotency-Key keeps, when it must differ from the one sent (it held a secret). */
    replayAnswer?: unknown;
    /** The AI operation's limit as this request left it, for the X-RateLimit-* headers (api/limits.ts). */
    rateLimit?: LimitDecision;
  }
}
