import type { FanOutResult, WorkflowStart } from '../shared/workflow-starts';
import type { ActivityDeps } from './deps';

/** The fan-out's one side effect: start a bulk request's workflows, each once ever (infra/temporal.ts). */
export function createFanOutActivities({ startWorkflows }: Pick<ActivityDeps, 'startWorkflows'>) {
  return {
    async startWorkflows(starts: WorkflowStart[]): Promise<FanOutResult> {
      return startWorkflows(starts);
    },
  };
}

export type FanOutActivities = ReturnType<typeof createFanOutActivities>;
