import { timingSafeEqual } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { SessionDoc } from '../../infra/documents/sessions';
import type { WorkspaceDoc } from '../../infra/documents/workspaces';
import { ForbiddenError } from '../../shared/errors';
import type { WebDeps } from '../deps';
import { sessionCookies } from './cookies';

/** The signed-in person's session and workspace, as `requireSession` leaves them. */
export interface SignedIn {
  session: SessionDoc;
  workspace: Readonly<WorkspaceDoc>;
}

/** What the pages' middleware leaves on a request, typed once for every page through Koa's `DefaultState`. */
declare module 'koa' {
  interface DefaultState {
    /** Set on the dashboard's pages by `requireSession`. */
    signedIn: SignedIn;
  }
}

export const signedIn = (ctx: Context): SignedIn => ctx.state.signedIn;

/** Dashboard pages need a live session; without one, a page read goes to sign-in and comes back after. */
export function requireSession({ stores, now, config }: WebDeps): Middleware {
  const cookies = sessionCookies(config);
  return async (ctx, next) => {
    const session = await stores.sessions.of(ctx.cookies.get(cookies.session), now(), config.SESSION_IDLE_MINUTES);
    const workspace = session && (await stores.workspaces.get(session.workspace_id));
    if (!session || !workspace) {
      ctx.status = 303;
      ctx.redirect(`/sign-in?next=${encodeURIComponent(ctx.method === 'GET' ? ctx.url : '/projects')}`);
      return;
    }
    ctx.state.signedIn = { session, workspace } satisfies SignedIn;
    await next();
  };
}

/** A signed-in form's CSRF token must be its session's own. */
export const checkCsrf: Middleware = async (ctx, next) => {
  const body = ctx.request.body as Record<string, unknown> | undefined;
  if (!sameSecret(body?.csrf, signedIn(ctx).session.csrf)) throw new ForbiddenError('This form has expired or was not sent from its page.');
  await next();
};

/** Whether a form's field is the expected secret, compared in constant time. */
export function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  // Compared as bytes: a string of the same length may be longer in UTF-8, which timingSafeEqual refuses.
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
