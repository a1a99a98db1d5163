import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/**
 * Recorded workflow histories, the replay test's fixtures (protobuf, as GetWorkflowExecutionHistory returns
 * them). Each recording run writes a folder named for its day (or HISTORIES_FOLDER, for a second recording
 * in a day), beside the earlier ones: a workflow running at a deploy may have started under any of them.
 */
export const HISTORIES_DIR = join(__dirname, '..', 'fixtures', 'histories');

export interface RecordedHistory {
  /** Its path below HISTORIES_DIR, e.g. `2026-11-23/call-cancelled.bin`. */
  file: string;
  history: temporal.api.history.v1.IHistory;
}

/**
 * With RECORD_HISTORIES set (`npm run record-histories`), writes the workflow's history as a replay fixture
 * into today's folder; otherwise does nothing, so the tests that walk a workflow's paths double as its recorder.
 */
export async function recordHistory(client: Client, workflowId: string, name: string, runId?: string): Promise<void> {
  if (!process.env.RECORD_HISTORIES) return;
  // `runId`: one run of a workflow that continued as new; its latest run otherwise.
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const dir = join(HISTORIES_DIR, process.env.HISTORIES_FOLDER ?? new Date().toISOString().slice(0, 10));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.bin`), temporal.api.history.v1.History.encode(history).finish());
}

export function recordedHistories(dir = HISTORIES_DIR): RecordedHistory[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.bin'))
    .map((e) => join(e.parentPath, e.name))
    .sort()
    .map((path) => ({
      file: relative(HISTORIES_DIR, path),
      history: temporal.api.history.v1.History.decode(readFileSync(path)),
    }));
}

/** The ids of the `patched()` markers a history recorded: the patched branches it took. */
export function patchMarkers(history: temporal.api.history.v1.IHistory): string[] {
  return (history.events ?? []).flatMap((e) => {
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_patch') return [];
    return (marker.details?.['patch-data']?.payloads ?? []).map((p) => (JSON.parse(Buffer.from(p.data!).toString()) as { id: string }).id);
  });
}

/** Every text a history holds, its payloads' bytes decoded, to search for what must not be there. */
export function historyText(history: unknown): string {
  const texts: string[] = [];
  const walk = (v: unknown): void => {
    // Before JSON.stringify would see them: a Buffer's toJSON turns its bytes into numbers.
    if (v instanceof Uint8Array) texts.push(Buffer.from(v).toString('utf8'));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    else if (typeof v === 'string') texts.push(v);
  };
  walk(history);
  return texts.join('\n');
}
