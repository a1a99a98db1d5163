import type { ActivityDeps } from './deps';
import { createCallActivities } from './calls';
import { createInterviewActivities } from './interviews';
import { createInterviewFollowUpActivities } from './interview-follow-up';
import { createInterviewAssessmentActivities } from './interview-assessment';
import { createFanOutActivities } from './fan-out';
import { createSimulatorActivities } from './simulator';
import { createSmokeActivities } from './smoke';
import { createWebhookActivities } from './webhooks';
import { createSuppressionActivities } from './suppressions';
import { createErasureActivities } from './erasure';
import { createPartnerPushActivities } from './partner-pushes';
import { createClaimSweepActivities } from './claim-sweep';

/**
 * Every slice's activities, closed over their dependencies, for the worker to register (the factory pattern
 * of Temporal's TypeScript samples). Each workflow proxies only its own slice's type.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSmokeActivities(deps),
    ...createCallActivities(deps),
    ...createInterviewActivities(deps),
    ...createInterviewFollowUpActivities(deps),
    ...createInterviewAssessmentActivities(deps),
    ...createFanOutActivities(deps),
    ...createSimulatorActivities(deps),
    ...createWebhookActivities(deps),
    ...createSuppressionActivities(deps),
    ...createErasureActivities(deps),
    ...createPartnerPushActivities(deps),
    ...createClaimSweepActivities(deps),
  };
}
