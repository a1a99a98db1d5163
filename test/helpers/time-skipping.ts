import { TestWorkflowEnvironment } from '@temporalio/testing';
import { TEST_SERVER_LAUNCHER } from '../../scripts/services';
import { quietTemporalRuntime } from './stack';
import { ensureSearchAttributes } from '../../composition/search-attributes';
import { createLogger } from '../../infra/logger';
import { installTemporalRuntime } from '../../infra/temporal-runtime';

/**
 * How many times a test server that did not answer in time is started. The SDK gives it 5 s, fixed in its
 * core (sdk-core's ephemeral_server), and kills it when they pass; a JVM starting beside a busy suite took
 * longer once (a whole run's four tests of one file failed on it, 2026-11-28).
 */
const STARTS = 3;

/** Temporal's Java time-skipping test server, provisioned by scripts/provision.sh. */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  quietTemporalRuntime(installTemporalRuntime);
  const env = await startTestServer(STARTS);
  // The workflows set custom search attributes; the test server knows them only once registered.
  await ensureSearchAttributes(env.client, env.namespace ?? 'default', createLogger('error'));
  return env;
}

async function startTestServer(starts: number): Promise<TestWorkflowEnvironment> {
  try {
    return await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: TEST_SERVER_LAUNCHER } },
    });
  } catch (err) {
    if (starts > 1 && /did not start within/.test(String(err))) return startTestServer(starts - 1);
    throw err;
  }
}
