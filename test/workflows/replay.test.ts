import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { quietTemporalRuntime, workflowBundle } from '../helpers/stack';
import * as workflows from '../../workflows';

/**
 * Recorded histories of every workflow type (protobuf-encoded, as GetWorkflowExecutionHistory returns them):
 * the calls and invitations of the version in which every step was a regular activity, and the simulator's
 * calls, fan-outs and smoke runs recorded by test/workflows/simulated-call-and-fan-out.test.ts with
 * RECORD_HISTORIES=1. The current workflows must replay each of them without a determinism error: workflows
 * running at a deploy carry on, on the `patched` branches that kept the old steps.
 */
const DIR = join(__dirname, '..', 'fixtures', 'histories');

describe('workflow code replays recorded histories', () => {
  beforeAll(() => quietTemporalRuntime());

  it('replays every recorded history without a determinism error', async () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.bin'));
    expect(files.length).toBeGreaterThanOrEqual(10);
    const histories = files.map((f) => ({ workflowId: f, history: temporal.api.history.v1.History.decode(readFileSync(join(DIR, f))) }));
    const results: Array<{ workflowId: string; error: string | null }> = [];
    for await (const r of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories)) {
      results.push({ workflowId: r.workflowId, error: r.error ? `${r.error.name}: ${r.error.message}` : null });
    }
    expect(results).toEqual(files.map((f) => ({ workflowId: f, error: null })));
  });

  it('has a history of every workflow type the worker registers', () => {
    const recorded = new Set(
      readdirSync(DIR)
        .filter((f) => f.endsWith('.bin'))
        .map(
          (f) =>
            temporal.api.history.v1.History.decode(readFileSync(join(DIR, f))).events[0].workflowExecutionStartedEventAttributes
              ?.workflowType?.name,
        ),
    );
    expect([...recorded].sort()).toEqual(Object.keys(workflows).sort());
  });
});
