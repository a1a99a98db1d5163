// Every workflow the worker registers. Only deterministic code is reachable from here: @temporalio/workflow
// and the pure helpers in shared/.
export { smokeWorkflow } from './smoke';
export { callWorkflow } from './call';
export { interviewWorkflow } from './interview';
export { fanOutWorkflow } from './fan-out';
export { simulatedCallWorkflow } from './simulated-call';
