import { callRecords, type CallActivityDeps } from './call-records';
import { createCallDialActivities } from './call-dial';
import { createCallCapacityActivities } from './call-capacity';
import { createCallMessageActivities } from './call-messages';
import { createCallBookkeepingActivities } from './call-bookkeeping';

export type { AttemptCheck } from './call-dial';

/**
 * Call side effects, in four parts: the dial (call-dial.ts), the calling slots (call-capacity.ts), the WhatsApp
 * templates (call-messages.ts) and the call's own records (call-bookkeeping.ts). Each is idempotent: a retried
 * or replayed activity leaves the same state. Every change of a call goes through its store (stores/calls.ts).
 */
export function createCallActivities(deps: CallActivityDeps) {
  const records = callRecords(deps);
  return {
    ...createCallDialActivities(deps, records),
    ...createCallCapacityActivities(deps, records),
    ...createCallMessageActivities(deps, records),
    ...createCallBookkeepingActivities(deps, records),
  };
}

/** The call workflow's activities, the type it proxies. */
export type CallActivities = ReturnType<typeof createCallActivities>;
