import { proxyActivities, sleep } from '@temporalio/workflow';
import type { SimulatorActivities } from '../activities/simulator';
import { workflowStart, type WorkflowStart } from '../shared/workflow-starts';

export function simulatedCallWorkflowId(providerCallId: string): string {
  return `simulated-${providerCallId}`;
}

// Like a provider that retries its webhook: delivery goes on until the report gets through.
const acts = proxyActivities<SimulatorActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * The simulator's side of one simulated call: it lasts until `endsAt`, then its end-of-call report is
 * delivered through the provider-callback path. Being a workflow, the pending report survives the death of
 * every process of ours, as a remote provider's would.
 */
export async function simulatedCallWorkflow(input: { providerCallId: string; endsAt: number }): Promise<void> {
  const ms = input.endsAt - Date.now();
  if (ms > 0) await sleep(ms);
  await acts.deliverSimulatedReport(input.providerCallId);
}

/** The start of a simulated call's workflow under its deterministic id. */
export function simulatedCallStart(providerCallId: string, endsAt: Date): WorkflowStart {
  return workflowStart(simulatedCallWorkflow, {
    workflowId: simulatedCallWorkflowId(providerCallId),
    args: [{ providerCallId, endsAt: endsAt.getTime() }],
    searchAttributes: [],
    summary: `Simulated call ${providerCallId}`,
  });
}
