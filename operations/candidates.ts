import type { CandidateInput, SavedCandidate } from '../stores/candidates';
import type { OperationDeps } from './deps';

export interface FiledCandidates {
  saved: SavedCandidate[];
  /** Whether the person index took every new or changed candidate; when not, the entries fail with a retry. */
  indexed: boolean;
}

/**
 * Filing a bulk request's candidates (call/initiate, interview/invite): each candidate of the project created
 * or updated with the request's call or interview listed on it, then, for new candidates and changed addresses,
 * the person index, where an erasure or a suppression finds the person's calls and interviews. Both before
 * the workflows start, so nothing is ever contacted that an erasure could not find.
 */
export function candidateFiling({ stores, logger }: Pick<OperationDeps, 'stores' | 'logger'>) {
  return async function file(
    workspaceId: string,
    projectId: string,
    inputs: CandidateInput[],
    resources: { kind: 'calls' | 'interviews'; ids: string[] },
  ): Promise<FiledCandidates> {
    // The known candidates as they were: whose email or phone changed is filed anew. One write after the
    // other: side by side the two measured no faster on FerretDB, whose SQLite takes one writer at a time
    // (alternating benchmark runs, 2026-11-27), and this way a repeated request files nothing.
    const saved = await stores.candidates.save(workspaceId, projectId, inputs, { previous: true, resources });
    // Filed in the index, or the candidates undone: a retry that found them saved would take them for filed.
    const undo = () =>
      stores.candidates
        .undoSave(projectId, inputs, saved)
        .catch((err: unknown) => logger.error({ err, projectId }, 'candidates not filed in the person index could not be undone'));
    let indexed: boolean;
    try {
      indexed = await stores.candidates.fileInPersonIndex(workspaceId, projectId, inputs, saved);
    } catch (err) {
      // An outage: the request is a 503 (due within 5 s), so the undo is not waited for.
      void undo();
      throw err;
    }
    if (!indexed) await undo();
    return { saved, indexed };
  };
}

export type FileCandidates = ReturnType<typeof candidateFiling>;
