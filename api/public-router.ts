import Router from '@koa/router';
import type { ApiDeps } from './deps';
import { handleErrors, type ErrorFamily } from './errors';
import { authenticateWith, parseJson } from './middleware';
import { idempotent } from './idempotent-requests';

/**
 * A router of the public API, as every slice's begins: its family's error shapes and the caller's API key; for
 * a slice whose operations take a body, the JSON parser and the Idempotency-Key too. `prefix`: the AI
 * operations are also served under their short paths, so they mount at the root.
 */
export function publicRouter(
  { stores, config }: Pick<ApiDeps, 'stores' | 'config'>,
  family: ErrorFamily,
  { bodies, prefix = '/api/public/v1' }: { bodies: boolean; prefix?: string },
): Router {
  const router = new Router(prefix ? { prefix } : {});
  router.use(
    handleErrors(family),
    authenticateWith((key) => stores.workspaces.authenticateKey(key)),
  );
  if (bodies) router.use(parseJson(config.BODY_LIMIT), idempotent(stores.idempotency));
  return router;
}
