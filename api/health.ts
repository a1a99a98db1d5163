import { Type } from '@sinclair/typebox';
import Router from '@koa/router';
import type { ApiDeps } from './deps';

export const HealthBody = Type.Object({ status: Type.Literal('ok') });
const Check = Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]);
export const ReadinessBody = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  checks: Type.Object({
    database: Check,
    temporal: Check,
    /** The search attributes the workflows are started with exist in the namespace (registered at start). */
    search_attributes: Type.Union([Type.Literal('ok'), Type.Literal('missing'), Type.Literal('unreachable')]),
  }),
});
type Readiness = (typeof ReadinessBody)['static'];

/** How long one look at the database and Temporal answers /readyz for. */
const FRESH_MS = 1_000;

/**
 * Liveness (the process is up: no I/O at all) and readiness (the database and Temporal reachable within two
 * seconds each, and the namespace's search attributes registered). Readiness is one look shared by every
 * request in its second, and by the requests that come while it is taken: a flood of probes costs the
 * database and Temporal at most one round trip a second each, not one per request.
 */
export function healthRoutes({ stores, workflows }: ApiDeps): Router {
  const router = new Router();
  let registered = false;
  const look = async (): Promise<Readiness> => {
    const [database, temporalCheck, attributes] = await Promise.all([
      probe(() => stores.ping()),
      probe(() => workflows.namespaceReachable()),
      // Once there, they stay: registering is asked again only until it has worked.
      registered ? true : probe(() => workflows.searchAttributesReady()),
    ]);
    registered = attributes === true;
    const search_attributes = attributes === 'unreachable' ? attributes : attributes ? 'ok' : 'missing';
    const ok = database !== 'unreachable' && temporalCheck !== 'unreachable' && registered;
    return {
      status: ok ? 'ready' : 'unavailable',
      checks: {
        database: database === 'unreachable' ? database : 'ok',
        temporal: temporalCheck === 'unreachable' ? temporalCheck : 'ok',
        search_attributes,
      },
    };
  };
  const readiness = sharedFor(FRESH_MS, look);
  // The first look starts with the process, so registering the attributes does not wait for a probe.
  void readiness();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const state = await readiness();
    ctx.status = state.status === 'ready' ? 200 : 503;
    ctx.body = state;
  });
  return router;
}

/** A check's answer, or `unreachable` when it failed or took longer than 2.5 s. */
async function probe<T>(check: () => Promise<T>): Promise<T | 'unreachable'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      check(),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), 2_500).unref())),
    ]);
  } catch {
    return 'unreachable';
  } finally {
    // Cleared once answered: a timer left to run out kept the look, and the service it looked at, for 2.5 s more.
    clearTimeout(timer);
  }
}

/** `run`'s answer, taken again only when older than `freshMs`; callers while it is taken share that one. */
function sharedFor<T>(freshMs: number, run: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (!last || Date.now() - last.at >= freshMs) {
      const value = run();
      const entry = { at: Number.POSITIVE_INFINITY, value };
      last = entry;
      // A look still under way is shared however long it takes; it counts as fresh from when it ends.
      void value.then(() => (entry.at = Date.now()));
    }
    return last.value;
  };
}
