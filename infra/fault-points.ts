import type { Logger } from './logger';

/** The moments of a request at which FAULT_HOLD_AT can stop it, for the chaos suite to kill the process there. */
export type FaultPoint = 'call-initiate:after-records' | 'call-initiate:before-response';
export const FAULT_POINTS: readonly FaultPoint[] = ['call-initiate:after-records', 'call-initiate:before-response'];

/**
 * When FAULT_HOLD_AT names `point`, the request logs "fault point reached" and waits there for good, so a
 * test can SIGKILL the process at exactly that moment. Unset (as in every real deployment), it does nothing.
 */
export async function holdAt(config: { FAULT_HOLD_AT?: FaultPoint }, point: FaultPoint, logger: Logger): Promise<void> {
  if (config.FAULT_HOLD_AT !== point) return;
  logger.warn({ point }, 'fault point reached');
  await new Promise<never>(() => undefined);
}
