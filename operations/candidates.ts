import type { CandidateInput, SavedCandidate } from '../stores/candidates';
import type { OperationDeps } from './deps';

export interface FiledCandidates {
  saved: SavedCandidate[];
  /** Whether the person index took every candidate; when not, the entries fail with a retry. */
  indexed: boolean;
}

/**
 * Filing a bulk request's candidates (call/initiate, interview/invite): each candidate of the project created
 * or updated with the request's call or interview listed on it, and beside it the person index, where an
 * erasure or a suppression finds the person's calls and interviews. Both before the workflows start, so
 * nothing is ever contacted that an erasure could not find.
 */
export function candidateFiling({ stores }: Pick<OperationDeps, 'stores'>) {
  return async function file(
    workspaceId: string,
    projectId: string,
    inputs: CandidateInput[],
    resources: { kind: 'calls' | 'interviews'; ids: string[] },
  ): Promise<FiledCandidates> {
    // The known candidates as they were (an invitation frees a changed email), and every candidate's person,
    // at once: filing a person already filed writes nothing.
    const [saved, indexed] = await Promise.all([
      stores.candidates.save(workspaceId, projectId, inputs, { previous: true, resources }),
      stores.candidates.fileInPersonIndex(workspaceId, projectId, inputs),
    ]);
    return { saved, indexed };
  };
}

export type FileCandidates = ReturnType<typeof candidateFiling>;
