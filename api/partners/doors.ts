import type { Middleware } from 'koa';
import type { ApiDeps } from '../deps';
import { UnauthorizedError } from '../../shared/errors';
import type { PartnerAts } from '../../shared/partners/schema';

/** The key of an HTTP Basic credential (`Basic base64(key:)`, as both ATSs send it); undefined for any other. */
export function basicKey(header: string | undefined): string | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  return at < 0 ? decoded : decoded.slice(0, at);
}

/**
 * An ATS door's authentication (docs/ats/): the Basic credential's key must be a live key the workspace made for
 * this very ATS (stores/partner-keys.ts); anything else is a 401 and reads nothing. The key stays in
 * `ctx.state.partnerKey` for the one report its ATS authenticates with it (Greenhouse's).
 */
export function partnerAuth({ stores }: Pick<ApiDeps, 'stores'>, ats: PartnerAts): Middleware {
  return async (ctx, next) => {
    const key = basicKey(ctx.get('authorization') || undefined);
    const workspace = await stores.partnerKeys.authenticate(ats, key);
    if (!workspace) throw new UnauthorizedError();
    ctx.state.workspace = workspace;
    ctx.state.partnerKey = key;
    await next();
  };
}
