import Router from '@koa/router';
import type { Context } from 'koa';
import { SESSION_HOURS } from '../../stores/sessions';
import { newToken } from '../../infra/ids';
import { ForbiddenError } from '../../shared/errors';
import type { WebDeps } from '../deps';
import { formBody, sameOrigin } from '../forms';
import { sendPage } from '../layout';
import { checkCsrf, requireSession, sameSecret, signedIn } from './guard';
import { sessionCookies } from './cookies';
import { SignInPage } from './pages';
import { perAddressFailures } from '../limits';

/** Where to go after signing in: a dashboard path of this service, never another site. */
const safeNext = (next: unknown) =>
  typeof next === 'string' && /^\/projects(\/[A-Za-z0-9_-]*)?(\?[^\s]*)?$/.test(next) ? next : '/projects';

/** Sign-in with an API key and sign-out; the session guards the dashboard's pages (web/projects/). */
export function sessionRoutes(deps: WebDeps): Router {
  const { stores, now } = deps;
  const router = new Router();
  // Before a session exists, the sign-in form is tied to its browser by a cookie it must echo (double submit).
  const cookies = sessionCookies(deps.config);
  const signInForm = (ctx: Context, status: number, next: string, error?: string) => {
    const csrf = newToken(32);
    cookies.set(ctx, cookies.signIn, csrf, 3_600_000);
    sendPage(ctx, status, <SignInPage csrf={csrf} next={next} error={error} />);
  };

  router.get('/sign-in', (ctx) => signInForm(ctx, 200, safeNext(ctx.query.next)));

  // The form's origin first: a cross-site post is refused before it spends anything. Then the address's
  // budget of failed sign-ins (a key that works gives its take back).
  router.post('/sign-in', sameOrigin, perAddressFailures(stores.limits.signIns, 'sign-in'), formBody, async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const expected = ctx.cookies.get(cookies.signIn);
    if (!expected || !sameSecret(body.csrf, expected)) throw new ForbiddenError('This form has expired or was not sent from its page.');
    const signed = await stores.workspaces.authenticateKey(typeof body.key === 'string' ? body.key.trim() : undefined);
    if (!signed) return signInForm(ctx, 401, safeNext(body.next), 'That is not an API key of any workspace, or it was revoked.');
    // The browser's earlier session ends: one browser, one session, and no fixation of a token set before.
    await stores.sessions.endOf(ctx.cookies.get(cookies.session));
    const { token } = await stores.sessions.open({ workspaceId: signed.workspace._id, keyId: signed.keyId }, now());
    cookies.set(ctx, cookies.session, token, SESSION_HOURS * 3_600_000);
    cookies.set(ctx, cookies.signIn, null, 0);
    ctx.status = 303;
    ctx.redirect(safeNext(body.next));
  });

  router.post('/sign-out', sameOrigin, requireSession(deps), formBody, checkCsrf, async (ctx) => {
    await stores.sessions.end(signedIn(ctx).session);
    cookies.set(ctx, cookies.session, null, 0);
    ctx.status = 303;
    ctx.redirect('/sign-in');
  });

  return router;
}
