import { TestWorkflowEnvironment } from '@temporalio/testing';
import { TEST_SERVER_LAUNCHER } from '../../scripts/services';
import { quietTemporalRuntime } from './stack';

/** Temporal's Java time-skipping test server, provisioned by scripts/provision.sh. */
export function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  quietTemporalRuntime();
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: TEST_SERVER_LAUNCHER } },
  });
}
