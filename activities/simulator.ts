import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityDeps } from './deps';

/** The simulator's delivery of an end-of-call report, run when its simulated call ends. */
export function createSimulatorActivities({ voice }: Pick<ActivityDeps, 'voice'>) {
  return {
    async deliverSimulatedReport(providerCallId: string): Promise<void> {
      if (!voice.deliver) {
        throw ApplicationFailure.nonRetryable('This worker does not run the simulator (VOICE_PROVIDER)', 'NotSimulator');
      }
      await voice.deliver(providerCallId);
    },
  };
}

export type SimulatorActivities = ReturnType<typeof createSimulatorActivities>;
