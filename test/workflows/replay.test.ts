import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import { Resource } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { quietTemporalRuntime, workflowBundle } from '../helpers/stack';
import { HISTORIES_DIR, patchMarkers, recordedHistories } from '../helpers/histories';
import { releases } from '../helpers/releases';
import * as workflows from '../../workflows';
import { installTemporalRuntime } from '../../infra/temporal-runtime';

/**
 * The workflow code as it is must replay every recorded history without a determinism error: workflows
 * running at a deploy carry on, each on the `patched()` branches its history took. The histories come from
 * `npm run record-histories` (test/helpers/histories.ts): a folder of every path for each release CHANGELOG.md
 * names (`release-<n>`), and a folder for each new path since; they stay for the workflows still running from
 * then. docs/tests.md, Releases, says when a patch may be retired.
 */
const WORKFLOWS_DIR = join(__dirname, '..', '..', 'workflows');

/** The `patched('…')` and `deprecatePatch('…')` ids in one source. */
function patchIdsIn(source: string): string[] {
  return [...source.matchAll(/\b(?:patched|deprecatePatch)\(\s*['"`]([^'"`]+)['"`]/g)].map((m) => m[1]);
}

/** Every patch id in the workflow sources (docs/tests.md, Releases). */
function patchIds(): string[] {
  const ids = readdirSync(WORKFLOWS_DIR)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => patchIdsIn(readFileSync(join(WORKFLOWS_DIR, f), 'utf8')));
  return [...new Set(ids)].sort();
}

describe('workflow code replays recorded histories', () => {
  const histories = recordedHistories();
  beforeAll(() => quietTemporalRuntime(installTemporalRuntime));

  it('replays every recorded history without a determinism error', async () => {
    expect(histories.length).toBeGreaterThanOrEqual(25);
    const results: Array<{ workflowId: string; error: string | null }> = [];
    const input = histories.map((h) => ({ workflowId: h.file, history: h.history }));
    for await (const r of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, input)) {
      results.push({ workflowId: r.workflowId, error: r.error ? `${r.error.name}: ${r.error.message}` : null });
    }
    expect(results).toEqual(histories.map((h) => ({ workflowId: h.file, error: null })));
  });

  // The tracing interceptors have broken replay elsewhere (sdk-typescript #1803, #1835, #2023): a worker with
  // tracing on (docs/tracing.md) replays every history too, and its workflows' spans come out of the sink.
  it('replays every recorded history with the tracing interceptors installed', async () => {
    const exporter = new InMemorySpanExporter();
    // The bundle a traced worker loads (scripts/bundle-workflows.ts, written once for the run by test/global-setup.ts).
    const bundle = await workflowBundle({ traced: true });
    expect(readFileSync(bundle.codePath, 'utf8')).toContain('OpenTelemetryInboundInterceptor');
    const plugin = new OpenTelemetryPlugin({
      resource: new Resource({ 'service.name': 'replay' }),
      spanProcessor: new SimpleSpanProcessor(exporter),
    });
    const results: Array<{ workflowId: string; error: string | null }> = [];
    const input = histories.map((h) => ({ workflowId: h.file, history: h.history }));
    for await (const r of Worker.runReplayHistories({ workflowBundle: bundle, plugins: [plugin] }, input)) {
      results.push({ workflowId: r.workflowId, error: r.error ? `${r.error.name}: ${r.error.message}` : null });
    }
    expect(results).toEqual(histories.map((h) => ({ workflowId: h.file, error: null })));
  });

  it('has a history of every workflow type the worker registers', () => {
    const recorded = new Set(histories.map((h) => h.history.events?.[0].workflowExecutionStartedEventAttributes?.workflowType?.name));
    expect([...recorded].sort()).toEqual(Object.keys(workflows).sort());
  });

  it('has the histories of every release CHANGELOG.md names, each of every workflow type', () => {
    const named = releases().map((r) => `release-${r.number}`);
    expect(named.length).toBeGreaterThanOrEqual(1);
    for (const folder of named) {
      const types = new Set(
        histories
          .filter((h) => h.file.startsWith(`${folder}/`))
          .map((h) => h.history.events?.[0].workflowExecutionStartedEventAttributes?.workflowType?.name),
      );
      expect({ folder, types: [...types].sort() }).toEqual({ folder, types: Object.keys(workflows).sort() });
    }
    expect(
      readdirSync(HISTORIES_DIR)
        .filter((f) => f.startsWith('release-'))
        .sort(),
    ).toEqual(named.sort());
  });

  it("has a history of every patch's new path, so no patch lands without one", () => {
    const recorded = new Set(histories.flatMap((h) => patchMarkers(h.history)));
    expect(patchIds().filter((id) => !recorded.has(id))).toEqual([]);
  });

  it('reads the patch ids of a workflow source, both kinds and any quotes', () => {
    const source = 'const a = patched(\'first-id\'); deprecatePatch("second-id"); if (patched(`third-id`)) go();';
    expect(patchIdsIn(source)).toEqual(['first-id', 'second-id', 'third-id']);
  });
});
