import type { Context } from 'koa';
import type { Config } from '../../infra/config';

/**
 * The dashboard's cookies: the session, and the sign-in form's double-submit secret. With COOKIE_SECURE (the
 * default when PUBLIC_BASE_URL is https) they are `Secure` and `__Host-` prefixed, so a browser keeps them only
 * from https, for this host alone, and no subdomain or plain-http page can set one in their place.
 */
export function sessionCookies(config: Pick<Config, 'COOKIE_SECURE'>) {
  const prefix = config.COOKIE_SECURE ? '__Host-' : '';
  return {
    session: `${prefix}hi_session`,
    signIn: `${prefix}hi_sign_in`,
    /** Sets (or, with null, clears) one of them. */
    set(ctx: Context, name: string, value: string | null, maxAgeMs: number): void {
      // Behind a proxy that ends TLS, a request reaches us over http unless TRUST_PROXY says otherwise: the
      // cookie is Secure all the same, since the browser's side of the connection is https.
      if (config.COOKIE_SECURE) ctx.cookies.secure = true;
      ctx.cookies.set(name, value, {
        httpOnly: true,
        sameSite: 'lax',
        secure: config.COOKIE_SECURE,
        path: '/',
        maxAge: maxAgeMs,
        overwrite: true,
      });
    },
  };
}
