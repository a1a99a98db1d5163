import { isSettled } from '../shared/interviews/assessment';
import { interviewEvent } from '../stores/interviews';
import type { ResourceEvent } from '../stores/resource-store';
import type { Stores } from '../stores';
import { expiresAtOf, type InterviewDoc } from '../infra/documents/interviews';
import { remindsCandidates, type WorkspaceDoc } from '../infra/documents/workspaces';
import { reminderAt } from '../shared/interviews/deadlines';
import type { InterviewStatus } from '../shared/interviews/schema';
import type { InterviewStage } from '../shared/interviews/transitions';
import type { InterviewEventType } from '../shared/webhooks/schema';
import type { ActivityDeps } from './deps';
import { loadInterview } from './interviews';

/** Where a sent invitation stands, as its workflow needs it to decide what to wait for. Times are epoch ms. */
export interface InterviewStanding {
  status: InterviewStatus;
  expiresAt: number;
  /** When the one reminder is due; null when none is: sent, turned off for the workspace, or not needed. */
  remindAt: number | null;
  /** A resend the API accepted and no email has answered yet. */
  resendPending: boolean;
  /** A finished interview whose assessment is not stored yet. */
  toAssess: boolean;
  /** The answers with a recording, when there is a transcriber to read them. */
  toTranscribe: number[];
}

export const resendPending = (i: InterviewDoc) => !!i.resend && !i.resend.sent_at && !i.resend.error;

/** Steps of the workflow before the email went out: an interview it shows there has not been seen invited. */
const BEFORE_INVITED: readonly InterviewStage[] = ['queued', 'preparing', 'emailing'];

/**
 * The events of the moves from the stage the workflow shows to where the interview stands: the changes the
 * candidate's page, the email's step or the expiry made, which their repeat announces again (a change made
 * by a request that does not wait for its announcement, or that stopped before it). A candidate who started
 * and finished between two reads was still started first; a finished interview already assessed was
 * completed with its assessment.
 */
function movesSince(shown: InterviewStage, interview: InterviewDoc): Array<ResourceEvent<InterviewEventType>> {
  const status = interview.status;
  const types: InterviewEventType[] = [];
  if (status !== 'failed' && status !== 'queued' && BEFORE_INVITED.includes(shown)) types.push('interview.invited');
  if ((status === 'started' || status === 'completed') && !['started', 'completed', 'assessing'].includes(shown))
    types.push('interview.started');
  if (status === 'expired' && shown !== 'expired') types.push('interview.expired');
  if (status === 'completed' && isSettled(interview.assessment?.status) && shown !== 'completed') types.push('interview.completed');
  return types.map((type) => interviewEvent(type, interview));
}

/** Reading where an invitation stands: for its first email's step, and for the workflow's loop after it. */
export function interviewStanding({ stores, transcriber }: Pick<ActivityDeps, 'stores' | 'transcriber'>) {
  /**
   * Whether the interview's reminder is still to go out: not sent, the candidate not started, the workspace
   * willing. `workspace`: the interview's, when the caller read it already.
   */
  async function reminderDue(interview: InterviewDoc, workspace?: Readonly<WorkspaceDoc> | null): Promise<boolean> {
    if (interview.status !== 'invited' || interview.reminder) return false;
    return remindsCandidates(workspace === undefined ? await stores.workspaces.get(interview.workspace_id) : workspace);
  }

  async function standing(interview: InterviewDoc, workspace?: Readonly<WorkspaceDoc> | null): Promise<InterviewStanding> {
    const expiresAt = expiresAtOf(interview);
    const toAssess = interview.status === 'completed' && !isSettled(interview.assessment?.status);
    // A candidate who asked for a person is not listened to by a machine either.
    const transcribing = toAssess && transcriber !== null && !interview.ai_assessment_declined_at;
    return {
      status: interview.status,
      expiresAt: expiresAt.getTime(),
      remindAt: (await reminderDue(interview, workspace)) ? reminderAt(interview.created_at, expiresAt).getTime() : null,
      resendPending: resendPending(interview),
      toAssess,
      toTranscribe: transcribing ? (interview.answers ?? []).filter((a) => a.recording).map((a) => a.index) : [],
    };
  }

  return { reminderDue, standing };
}

/** The invitation workflow's reads of where it stands, each with the repeats that announce what it finds. */
export function createInterviewStandingActivities(deps: Pick<ActivityDeps, 'stores' | 'transcriber'>) {
  const { interviews }: Pick<Stores, 'interviews'> = deps.stores;
  const { standing } = interviewStanding(deps);
  const load = (interviewId: string) => loadInterview(deps.stores, interviewId);
  return {
    /**
     * Where the interview stands, once the changes that moved it past the stage the workflow shows (`shown`)
     * are repeated: the store finds each made and announces it again, so an event whose first announcement did
     * not go out (the candidate's page does not wait for it) goes out now. The workflow shows the status this
     * returns. Announcing is idempotent: an event is made once, however often it is repeated.
     */
    async followInterview(interviewId: string, shown: InterviewStage): Promise<InterviewStanding> {
      const interview = await load(interviewId);
      for (const event of movesSince(shown, interview)) await interviews.change(interview, { events: [event] });
      return standing(interview);
    },
  };
}
