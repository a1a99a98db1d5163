import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { quietTemporalRuntime, workflowBundle } from '../helpers/stack';

/**
 * Histories recorded by the workflow tests of the version in which every call and invitation step was a
 * regular activity (protobuf-encoded, as GetWorkflowExecutionHistory returns them). The current workflows
 * must replay each of them without a determinism error: workflows running at a deploy carry on, on the
 * `patched` branches that kept the old steps.
 */
const DIR = join(__dirname, '..', 'fixtures', 'histories');

describe('workflow code replays recorded histories', () => {
  beforeAll(() => quietTemporalRuntime());

  it('replays every recorded call and invitation history without a determinism error', async () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.bin'));
    expect(files.length).toBeGreaterThanOrEqual(10);
    const histories = files.map((f) => ({ workflowId: f, history: temporal.api.history.v1.History.decode(readFileSync(join(DIR, f))) }));
    const results: Array<{ workflowId: string; error: string | null }> = [];
    for await (const r of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories)) {
      results.push({ workflowId: r.workflowId, error: r.error ? `${r.error.name}: ${r.error.message}` : null });
    }
    expect(results).toEqual(files.map((f) => ({ workflowId: f, error: null })));
  });
});
