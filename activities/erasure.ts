import { ApplicationFailure } from '@temporalio/common';
import { ConflictError } from '../shared/errors';
import type { ErasureCounts } from '../shared/erasure/schema';
import type { ActivityDeps } from './deps';

/** A sweep's step: candidates erased by this call, and whether more are due in the workspace. */
export interface SweepStep {
  candidates: number;
  calls: number;
  interviews: number;
  recordings: number;
  more: boolean;
  /** The last candidate id this step looked at when more are due: the next step starts after it. */
  next: string | null;
}

/** Candidates one activity erases at most, so each step ends well inside its timeout. */
const PER_STEP = 100;

/**
 * The workspaces' `retention_days` (docs/erasure.md): each day, candidates whose calls and interviews all ended
 * longer ago than that are erased, as POST /candidates/erase erases them.
 */
export function createErasureActivities({
  stores,
  operations,
  voice,
  logger,
}: Pick<ActivityDeps, 'stores' | 'operations' | 'voice' | 'logger'>) {
  return {
    /**
     * The step of a requested erasure (workflows/erasure.ts): runs it, and while a call of the person has an
     * attempt under way fails to be tried again (its workflow waits it out), naming only the call.
     */
    async eraseRequested(erasureId: string): Promise<ErasureCounts> {
      try {
        return await operations.erasure.runRequested(erasureId);
      } catch (err) {
        if (err instanceof ConflictError) throw ApplicationFailure.retryable(err.message, 'AttemptUnderWay');
        throw err;
      }
    },

    /**
     * Deletes the voice provider's copy of an erased person's call (docs/erasure.md). `provider`: the one that
     * placed it, as its attempt recorded; a copy at a provider this deployment no longer uses is left, and said so.
     * Fails while the provider cannot tell, so the workflow tries again until it answers.
     */
    async deleteProviderCall(provider: string, providerCallId: string): Promise<'deleted' | 'gone' | 'unsupported'> {
      if (provider !== voice.name || !voice.deleteCall) {
        logger.warn({ provider, configured: voice.name }, "a provider's copy of an erased call cannot be deleted by this deployment");
        return 'unsupported';
      }
      return voice.deleteCall(providerCallId);
    },

    /** The workspaces that keep candidates for a limited time (a daily read of the few settings documents). */
    async retentionWorkspaces(): Promise<Array<{ id: string; days: number }>> {
      return stores.workspaces.withRetention();
    },

    /**
     * Erases up to PER_STEP candidates of the workspace whose calls and interviews all ended before `nowMs` less
     * `days`: a candidate with any newer, or not ended, is kept whole. Found from the ended ones (MongoDB's
     * indexes; FerretDB reads through, once a day), in candidate id order from `after`:
     * candidates kept whole stay in what is found, so a step that started over would look at them again, and a
     * hundred of them ahead of an expired one would hide it for good.
     */
    async sweepRetention(workspaceId: string, days: number, nowMs: number, after: string | null): Promise<SweepStep> {
      const cutoff = new Date(nowMs - days * 86_400_000);
      const [calls, interviews] = await Promise.all([
        stores.calls.candidatesEndedBefore(workspaceId, cutoff),
        stores.interviews.candidatesEndedBefore(workspaceId, cutoff),
      ]);
      const found = [...new Set([...calls, ...interviews])];
      // In candidate id order, after the cursor.
      const candidates = found.sort().filter((id) => after === null || id > after);
      const step: SweepStep = { candidates: 0, calls: 0, interviews: 0, recordings: 0, more: false, next: null };
      let looked = 0;
      for (const candidateId of candidates) {
        if (looked++ === PER_STEP) {
          step.more = true;
          step.next = candidates[PER_STEP - 1];
          break;
        }
        const counts = await operations.erasure.erase(workspaceId, { candidate_id: candidateId }, { allEndedBefore: cutoff });
        if (!counts) continue;
        step.candidates++;
        step.calls += counts.calls;
        step.interviews += counts.interviews;
        step.recordings += counts.recordings;
      }
      return step;
    },
  };
}

export type ErasureActivities = ReturnType<typeof createErasureActivities>;
