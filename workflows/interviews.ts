import {
  ActivityFailure,
  ApplicationFailure,
  defineQuery,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { InterviewActivities } from '../activities/interviews';
import type { InterviewStatus } from '../shared/interviews/schema';
import { candidateSearchAttributes, InterviewStatusKey, type CandidateRecord } from './search-attributes';
import { workflowStart, type WorkflowStart } from '../shared/workflow-starts';

export interface InterviewWorkflowInput {
  interviewId: string;
}

/**
 * The stored statuses of an invitation (the contract's InterviewStatus), and the two steps between them that
 * operators see in the InterviewStatus search attribute while they run.
 */
export type InterviewStage = InterviewStatus | 'preparing' | 'emailing';

export interface InterviewProgress {
  status: InterviewStage;
  questionsCount: number | null;
  error: string | null;
}

export const interviewProgressQuery = defineQuery<InterviewProgress>('interviewProgress');

export function interviewWorkflowId(interviewId: string): string {
  return `interview-${interviewId}`;
}

// The model gets about nine minutes of attempts (its outages, rate limits, malformed answers) before the
// invitation is given up.
const QUESTIONS = {
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 15 },
} as const;
/** While another invitation generates the project's questions: first wait, longest wait, and when to give up. */
const QUESTIONS_POLL = { firstMs: 1_000, maxMs: 30_000, limitMs: 15 * 60_000 };
// Email outages are retried for about a quarter of an hour; the provider's final refusals are not retried.
const MAIL = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 6 },
} as const;
const BOOKKEEPING = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;
const questions = proxyActivities<InterviewActivities>(QUESTIONS);
/**
 * The email (one request to the provider) and the failure record (one `_id` write) run inside the workflow
 * task as local activities, which spares the server two workflow tasks and an activity task per invitation.
 * Retries that wait longer than a second do so on workflow timers, which time-skipping tests skip. Question
 * generation, which may wait on a model for a while, stays a regular activity.
 */
const LOCAL_RETRY = { localRetryThreshold: '1 second' } as const;
const local = {
  mail: proxyLocalActivities<InterviewActivities>({ ...MAIL, ...LOCAL_RETRY }),
  bookkeeping: proxyLocalActivities<InterviewActivities>({ ...BOOKKEEPING, ...LOCAL_RETRY }),
};
/** Histories recorded before the change replay with regular activities. */
const remote = { mail: proxyActivities<InterviewActivities>(MAIL), bookkeeping: proxyActivities<InterviewActivities>(BOOKKEEPING) };

/** One invitation: fix the interview's questions (generated once per project), then email the link. */
export async function interviewWorkflow({ interviewId }: InterviewWorkflowInput): Promise<InterviewProgress> {
  const progress: InterviewProgress = { status: 'queued', questionsCount: null, error: null };
  const { mail, bookkeeping } = patched('local-email') ? local : remote;
  setHandler(interviewProgressQuery, () => progress);
  const setStatus = (status: InterviewProgress['status']) => {
    progress.status = status;
    upsertSearchAttributes([{ key: InterviewStatusKey, value: status }]);
  };
  const fail = async (stage: 'questions' | 'email', error: string) => {
    progress.error = error;
    setStatus('failed');
    await bookkeeping.failInterview(interviewId, stage, error);
    return progress;
  };

  setStatus('preparing');
  const giveUpAt = Date.now() + QUESTIONS_POLL.limitMs;
  try {
    for (
      let wait = QUESTIONS_POLL.firstMs;
      (progress.questionsCount = await questions.prepareInterview(interviewId)) === null;
      wait = Math.min(wait * 2, QUESTIONS_POLL.maxMs)
    ) {
      // Another invitation of the project holds the generation claim: wait on a timer, visible in the history.
      if (Date.now() >= giveUpAt)
        return fail('questions', 'The interview questions could not be prepared: generation did not finish in time');
      await sleep(wait);
    }
  } catch (err) {
    return fail('questions', `The interview questions could not be prepared: ${reason(err)}`);
  }

  setStatus('emailing');
  try {
    const delivery = await mail.sendInvitation(interviewId);
    if (delivery === 'failed') return fail('email', 'The invitation email could not be delivered');
  } catch (err) {
    return fail('email', `The invitation email could not be sent: ${reason(err)}`);
  }
  setStatus('invited');
  return progress;
}

function reason(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : String(cause);
}

/** The start of an invitation's workflow under its deterministic id. */
export function interviewStart(interview: CandidateRecord): WorkflowStart {
  return workflowStart(interviewWorkflow, {
    workflowId: interview.workflow_id,
    args: [{ interviewId: interview._id }],
    searchAttributes: [...candidateSearchAttributes(interview), { key: InterviewStatusKey, value: 'queued' }],
    summary: `Interview invitation for ${interview.candidate.name} (${interview.ats_job_id})`,
  });
}
