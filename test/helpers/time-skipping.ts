import { TestWorkflowEnvironment } from '@temporalio/testing';
import { TEST_SERVER_LAUNCHER } from '../../scripts/services';
import { quietTemporalRuntime } from './stack';
import { ensureSearchAttributes } from '../../composition/search-attributes';
import { createLogger } from '../../infra/logger';
import { installTemporalRuntime } from '../../infra/temporal-runtime';

/** Temporal's Java time-skipping test server, provisioned by scripts/provision.sh. */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  quietTemporalRuntime(installTemporalRuntime);
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: TEST_SERVER_LAUNCHER } },
  });
  // The workflows set custom search attributes; the test server knows them only once registered.
  await ensureSearchAttributes(env.client, env.namespace ?? 'default', createLogger('error'));
  return env;
}
