import { ActivityFailure, continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import { RUN_LIMIT_MS } from '../shared/workflow-runs';
import type { ErasureActivities, SweepStep } from '../activities/erasure';
import type { ErasureCounts, ProviderCallRef } from '../shared/erasure/schema';

const acts = proxyActivities<ErasureActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 10 },
});

/** The schedule that starts the sweep each day, one per task queue (composition/schedules.ts). */
export const retentionScheduleId = (taskQueue: string) => `retention-sweep-${taskQueue}`;

export interface RetentionSweepResult {
  workspaces: number;
  candidates: number;
  calls: number;
  interviews: number;
  recordings: number;
}

/**
 * The daily retention sweep (docs/erasure.md): each workspace with `retention_days` has its candidates whose
 * calls and interviews all ended longer ago than that erased, a hundred at a time. Started by a Temporal
 * schedule, so operators see each run, its counts and any failure in the UI.
 */
export async function retentionSweepWorkflow(): Promise<RetentionSweepResult> {
  // The schedule's own time for this run: a run delayed or retried erases by the day it was meant for.
  const now = workflowInfo().startTime.getTime();
  const total: RetentionSweepResult = { workspaces: 0, candidates: 0, calls: 0, interviews: 0, recordings: 0 };
  for (const { id, days } of await acts.retentionWorkspaces()) {
    total.workspaces++;
    let after: string | null = null;
    for (let more = true; more;) {
      // Each step goes on from where the last one stopped, past the candidates it kept.
      const step: SweepStep = await acts.sweepRetention(id, days, now, after);
      after = step.next ?? null;
      total.candidates += step.candidates;
      total.calls += step.calls;
      total.interviews += step.interviews;
      total.recordings += step.recordings;
      more = step.more;
    }
  }
  return total;
}

/**
 * How long one run tries a step that is tried until it ends: a day less than a run may live (RUN_LIMIT_MS). The
 * next run goes on from what is left (docs/erasure.md, "Runs").
 */
const TRIED_FOR_MS = RUN_LIMIT_MS - 86_400_000;

const deletions = proxyActivities<ErasureActivities>({
  startToCloseTimeout: '1 minute',
  // Until the provider answers: a 2xx or a 404 ends it; an outage of days is waited out, and shown in the UI.
  scheduleToCloseTimeout: TRIED_FOR_MS,
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 hour' },
});

type DeletionCounts = Record<'deleted' | 'gone' | 'unsupported', number>;

/**
 * The provider's copies of an erased person's calls deleted (docs/erasure.md), each until the provider answers,
 * started by the erasure before it blanks the calls, so a copy is never forgotten. Ids of the provider only.
 * A run whose provider stayed down for as long as it may try continues as new with the copies left and the
 * counts so far.
 */
export async function providerDeletionWorkflow(calls: ProviderCallRef[], before?: DeletionCounts): Promise<DeletionCounts> {
  const done = before ?? { deleted: 0, gone: 0, unsupported: 0 };
  for (const [n, { provider, providerCallId }] of calls.entries()) {
    try {
      done[await deletions.deleteProviderCall(provider, providerCallId)]++;
    } catch (err) {
      if (!(err instanceof ActivityFailure && err.retryState === 'TIMEOUT')) throw err;
      return continueAsNew<typeof providerDeletionWorkflow>(calls.slice(n), done);
    }
  }
  return done;
}

const steps = proxyActivities<ErasureActivities>({
  startToCloseTimeout: '2 minutes',
  // While an attempt under way holds it (its report is still to come), and through a worker's or the
  // database's restart: tried again until it ends, each try going on from what the last one left.
  scheduleToCloseTimeout: TRIED_FOR_MS,
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** The workflow id of an erasure: one per erasure document (stores/erasures.ts). */
export const erasureWorkflowId = (erasureId: string) => `erasure-${erasureId}`;

/**
 * A person's erasure (POST /candidates/erase, docs/erasure.md), durable: its step (operations/erasure.ts) files
 * the suppression, holds and cancels the person's calls, waits out an attempt under way, blanks the records,
 * has the provider's copies deleted and removes the recordings; a restart of the API or the worker mid-way
 * runs it again from what is left. Its input is the erasure document's id, its result the counts: no history
 * names the person.
 */
export async function erasureWorkflow(erasureId: string): Promise<ErasureCounts> {
  try {
    return await steps.eraseRequested(erasureId);
  } catch (err) {
    // Tried as long as a run may: the next run goes on from what is left.
    if (!(err instanceof ActivityFailure && err.retryState === 'TIMEOUT')) throw err;
    return continueAsNew<typeof erasureWorkflow>(erasureId);
  }
}
