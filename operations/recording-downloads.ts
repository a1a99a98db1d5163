import { NotFoundError } from '../shared/errors';
import type { RecordingResponse } from '../stores/recordings';
import type { OperationDeps } from './deps';

/** Which recording of an interview: an answer's (by the index the path names), or the live conversation's. */
export type RecordingOf = { answer: string } | 'conversation';

/**
 * An interview's recording as the API's download and the dashboard's player both serve it (all of it, or the
 * byte range asked for, so a browser can seek while playing): the workspace's own interview only, and, from a
 * project's page, only that project's. Another workspace's interview is the same "not found" as an unknown one.
 */
export function recordingDownloads({ stores }: Pick<OperationDeps, 'stores'>) {
  return async (
    at: { workspaceId: string; interviewId: string; projectId?: string },
    of: RecordingOf,
    range: string | undefined,
  ): Promise<RecordingResponse> => {
    const interview = await stores.interviews.owned(at.workspaceId, at.interviewId);
    if (!interview || (at.projectId !== undefined && interview.project_id !== at.projectId)) throw new NotFoundError('Interview not found');
    const download = await stores.recordings.download(interview, of, range);
    if (download) return download;
    throw new NotFoundError(of === 'conversation' ? 'This interview has no recording of a conversation' : 'This answer has no recording');
  };
}

export type RecordingDownloads = ReturnType<typeof recordingDownloads>;
