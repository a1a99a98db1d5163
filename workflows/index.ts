// Every workflow the worker registers. Only deterministic code is reachable from here: @temporalio/workflow
// and the pure helpers in shared/.
export { smokeWorkflow } from './smoke';
export { callWorkflow } from './calls';
export { interviewWorkflow } from './interviews';
export { fanOutWorkflow } from './fan-out';
export { simulatedCallWorkflow } from './simulated-call';
export { webhookDeliveryWorkflow } from './webhooks';
export { optOutWorkflow } from './suppressions';
export { retentionSweepWorkflow, providerDeletionWorkflow, erasureWorkflow } from './erasure';
export { partnerPushWorkflow } from './partner-pushes';
export { claimSweepWorkflow } from './claim-sweep';
