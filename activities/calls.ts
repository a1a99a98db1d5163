import { callChanges, type CallActivityDeps } from './call-changes';
import { createCallDialActivities } from './call-dial';
import { createCallCapacityActivities } from './call-capacity';
import { createCallMessageActivities } from './call-messages';
import { createCallBookkeepingActivities } from './call-bookkeeping';
import { createCallContactActivities } from './call-contact';
import { createCallBackActivities } from './call-backs';
import { createCallCandidateChoiceActivities } from './call-candidate-choices';

export type { AttemptCheck } from './call-dial';
export type { ContactDecision, HeldContact } from './call-contact';

/**
 * Call side effects, in seven parts: the dial (call-dial.ts), the calling slots (call-capacity.ts), the WhatsApp
 * templates (call-messages.ts), the call's bookkeeping (call-bookkeeping.ts), the contact rules decided at
 * each dial and message (call-contact.ts), the candidate's call-backs (call-backs.ts) and what they chose on
 * their link (call-candidate-choices.ts). Each is idempotent: a retried
 * or replayed activity leaves the same state. Every change of a call goes through its store (stores/calls.ts).
 */
export function createCallActivities(deps: CallActivityDeps) {
  const changes = callChanges(deps);
  return {
    ...createCallDialActivities(deps, changes),
    ...createCallCapacityActivities(deps, changes),
    ...createCallMessageActivities(deps, changes),
    ...createCallBookkeepingActivities(deps, changes),
    ...createCallContactActivities(deps, changes),
    ...createCallBackActivities(deps, changes),
    ...createCallCandidateChoiceActivities(deps, changes),
  };
}

/** The call workflow's activities, the type it proxies. */
export type CallActivities = ReturnType<typeof createCallActivities>;
