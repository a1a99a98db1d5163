import { Type } from '@sinclair/typebox';
import Router from '@koa/router';
import type { ApiDeps } from './deps';

export const HealthBody = Type.Object({ status: Type.Literal('ok') });
const Check = Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]);
export const ReadinessBody = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  checks: Type.Object({ database: Check, temporal: Check }),
});

/** Liveness (process up) and readiness (database and Temporal reachable within two seconds each). */
export function healthRoutes({ stores, temporal, config }: ApiDeps): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const [database, temporalCheck] = await Promise.all([
      probe(() => stores.ping()),
      probe(() =>
        temporal.connection.withDeadline(Date.now() + 2_000, () =>
          temporal.connection.workflowService.describeNamespace({ namespace: config.TEMPORAL_NAMESPACE }),
        ),
      ),
    ]);
    const ready = database === 'ok' && temporalCheck === 'ok';
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'unavailable', checks: { database, temporal: temporalCheck } };
  });
  return router;
}

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'unreachable'> {
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_500).unref())]);
    return 'ok';
  } catch {
    return 'unreachable';
  }
}
