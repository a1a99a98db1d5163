import { asUnavailable } from '../infra/unavailable';
import type { OperationDeps } from './deps';

/**
 * A bulk request's workflow starts (`start`, through the WorkflowPort), or the way back: when the start fails,
 * `takeBack` undoes what the request wrote for these workflows (their items, created with their list entries
 * by their store), so that its retry starts afresh. An outage of Temporal or of the database then fails the
 * whole request with a 503 to retry; any other failure fails the entries, and `false` says so. The cause goes
 * to the log only. Once this returns true the workflows will exist.
 */
export async function startOrTakeBack(
  { logger }: Pick<OperationDeps, 'logger'>,
  start: () => Promise<void>,
  request: { summary: string; workflows: number },
  takeBack: () => Promise<unknown>,
): Promise<boolean> {
  try {
    await start();
    return true;
  } catch (err) {
    logger.error({ err, request: request.summary, workflows: request.workflows }, 'workflows could not be started');
    await takeBack();
    const down = asUnavailable(err);
    if (down) throw down;
    return false;
  }
}
