import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

/** One run of a workflow, from its history: when it started and ended, whether it continued as new, its input. */
export interface WorkflowRun {
  runId: string;
  started: number;
  ended: number;
  events: number;
  continued: boolean;
  input: any;
}

const time = (e: temporal.api.history.v1.IHistoryEvent) =>
  Number(e.eventTime!.seconds) * 1000 + Math.round((e.eventTime!.nanos ?? 0) / 1e6);

/** Each run of a workflow, first to last, following its continue-as-new events from `firstRunId`. */
export async function runsOf(client: Client, workflowId: string, firstRunId: string): Promise<WorkflowRun[]> {
  const runs: WorkflowRun[] = [];
  let runId: string | null = firstRunId;
  while (runId !== null) {
    const history: temporal.api.history.v1.IHistory = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events: temporal.api.history.v1.IHistoryEvent[] = history.events ?? [];
    const last = events[events.length - 1];
    const next: string | null = last.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? null;
    const payload = events[0].workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
    runs.push({
      runId,
      started: time(events[0]),
      ended: time(last),
      events: events.length,
      continued: next !== null,
      input: payload ? JSON.parse(Buffer.from(payload).toString()) : null,
    });
    runId = next;
  }
  return runs;
}
