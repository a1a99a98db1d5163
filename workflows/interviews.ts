import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  defineQuery,
  defineSignal,
  makeContinueAsNewFunc,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { InterviewActivities } from '../activities/interviews';
import type { InterviewStanding, InterviewFollowUpActivities, LinkEmailKind } from '../activities/interview-follow-up';
import type { InterviewAssessmentActivities } from '../activities/interview-assessment';
import { candidateSearchAttributes, InterviewStatusKey, type CandidateResource } from './search-attributes';
import { interviewStageMayMove, type InterviewStage } from '../shared/interviews/transitions';
import { workflowStart, type WorkflowStart } from '../shared/workflow-starts';
import { RUN_LIMIT_MS } from '../shared/workflow-runs';

export interface InterviewWorkflowInput {
  interviewId: string;
  /**
   * The invitation was sent, and a run that waited for its candidate up to its deadline continued as new:
   * where it stood then. The next run follows the interview from there (docs/interviews.md, "Runs").
   */
  following?: Pick<InterviewProgress, 'status' | 'questionsCount'>;
}

/**
 * What a run keeps free after its last wait for the candidate: a reminder's or a resend's email, and an
 * assessment (transcriptions and a model, retried for a quarter of an hour each), with room to spare.
 */
const RUN_RESERVE_MS = 12 * 3_600_000;

export type { InterviewStage } from '../shared/interviews/transitions';

export interface InterviewProgress {
  status: InterviewStage;
  questionsCount: number | null;
  error: string | null;
}

export const interviewProgressQuery = defineQuery<InterviewProgress>('interviewProgress');
/**
 * The interview changed outside the workflow (the candidate started or finished, the API accepted a resend):
 * the workflow reads where it stands. Sent with signalWithStart, so an invitation whose workflow has closed
 * (it expired, or ran before deadlines existed) gets a new run, which finds the email sent and carries on.
 */
export const interviewChangedSignal = defineSignal('interviewChanged');

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
 * The emails (one request to the provider each) and the records (one `_id` write each) run inside the
 * workflow task as local activities, which spares the server workflow tasks and activity tasks per
 * invitation. Retries that wait longer than a second do so on workflow timers, which time-skipping tests
 * skip. Question generation, which may wait on a model for a while, stays a regular activity.
 */
const LOCAL_RETRY = { localRetryThreshold: '1 second' } as const;
const bookkeeping = proxyLocalActivities<InterviewActivities>({ ...BOOKKEEPING, ...LOCAL_RETRY });
const followUp = {
  mail: proxyLocalActivities<InterviewFollowUpActivities>({ ...MAIL, ...LOCAL_RETRY }),
  bookkeeping: proxyLocalActivities<InterviewFollowUpActivities>({ ...BOOKKEEPING, ...LOCAL_RETRY }),
};
// Transcription uploads up to 25 MB and the assessment waits on a model: regular activities, retried for
// about a quarter of an hour, each attempt visible in the Temporal UI.
const assessment = proxyActivities<InterviewAssessmentActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 10 },
});

/**
 * One invitation: fix the interview's questions (generated once per project), email the link, then follow
 * the interview to its end: the reminder, the expiry, resends, and the assessment once the candidate finishes.
 */
export async function interviewWorkflow({ interviewId, following }: InterviewWorkflowInput): Promise<InterviewProgress> {
  const progress: InterviewProgress = { status: 'queued', questionsCount: null, error: null, ...following };
  // The status shown is the one each activity wrote and returned, and the workflow announces nothing itself:
  // each step's change, and its repeat when the step runs again or the workflow reads where the interview
  // stands (followInterview), announces what it made.
  setHandler(interviewProgressQuery, () => progress);
  let changed = false;
  setHandler(interviewChangedSignal, () => void (changed = true));
  /**
   * Shows where the invitation stands to operators (the InterviewStatus search attribute), through the same
   * table as the stored interview (shared/interviews/transitions.ts): a move it refuses is a defect, and fails
   * the workflow task, which Temporal retries and the UI shows, rather than labelling the invitation wrongly.
   */
  const setStatus = (status: InterviewStage) => {
    if (!interviewStageMayMove(progress.status, status)) {
      throw new Error(`interview ${interviewId}: no move from ${progress.status} to ${status}`);
    }
    progress.status = status;
    upsertSearchAttributes([{ key: InterviewStatusKey, value: status }]);
  };
  /** Shows the status an activity wrote and returned; the same again is not upserted. */
  const show = (status: InterviewStage) => {
    if (status !== progress.status) setStatus(status);
  };
  const fail = async (stage: 'questions' | 'email', error: string) => {
    progress.error = error;
    show(await bookkeeping.failInterview(interviewId, stage, error));
    return progress;
  };

  if (following)
    return follow(
      interviewId,
      progress,
      null,
      () => changed,
      () => void (changed = false),
      show,
      setStatus,
    );

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
  /**
   * The email, its announcement and the first reading of the deadlines, in one local activity: where the
   * interview stands as the email's own step read it, for the first turn of the loop below.
   */
  let first: InterviewStanding | null;
  try {
    // Before its read: a change signalled after it makes the loop read again.
    changed = false;
    const sent = await followUp.mail.deliverInvitation(interviewId);
    if (sent.delivery === 'failed') return fail('email', 'The invitation email could not be delivered');
    first = sent.standing;
    show(sent.status ?? 'invited');
  } catch (err) {
    return fail('email', `The invitation email could not be sent: ${reason(err)}`);
  }
  // The step could not announce or read: it is done here, apart, by the repeat of the moves past the
  // email's step, which announces the invitation again.
  first ??= await followUp.bookkeeping.followInterview(interviewId, 'emailing');
  return follow(
    interviewId,
    progress,
    first,
    () => changed,
    () => void (changed = false),
    show,
    setStatus,
  );
}

/**
 * Follows a sent invitation to its end: reads where it stands (`first`: read already), sends the reminder
 * and resends, expires it, and assesses it once the candidate finishes. A wait for the candidate that would
 * take the run past its deadline ends there, and the invitation continues as new, following it from where it
 * stood (docs/interviews.md, "Runs").
 */
async function follow(
  interviewId: string,
  progress: InterviewProgress,
  first: InterviewStanding | null,
  changed: () => boolean,
  readAgain: () => void,
  show: (status: InterviewStage) => void,
  setStatus: (status: InterviewStage) => void,
): Promise<InterviewProgress> {
  const deadline = workflowInfo().runStartTime.getTime() + RUN_LIMIT_MS - RUN_RESERVE_MS;
  for (;;) {
    let standing = first;
    first = null;
    if (!standing) {
      readAgain();
      standing = await followUp.bookkeeping.followInterview(interviewId, progress.status);
    }
    if (standing.resendPending) {
      await sendLink(interviewId, 'resend');
      continue;
    }
    show(standing.status);
    if (standing.status === 'completed') {
      // With its assessment, so the receiver has the whole result in one event (the assessment's own change
      // announces it).
      if (standing.toAssess) await assess(interviewId, standing.toTranscribe, setStatus, standing.status);
      return progress;
    }
    if (standing.status !== 'invited' && standing.status !== 'started') return progress;
    const due = Math.min(standing.expiresAt, standing.remindAt ?? Infinity);
    // Woken by a change: read again. Otherwise the reminder or the expiry is due, or the run's deadline.
    if (due > Date.now() && (await condition(changed, Math.min(due, deadline) - Date.now()))) continue;
    if (Date.now() < due) {
      const next = makeContinueAsNewFunc<typeof interviewWorkflow>({ typedSearchAttributes: workflowInfo().typedSearchAttributes });
      return next({ interviewId, following: { status: progress.status, questionsCount: progress.questionsCount } });
    }
    if (Date.now() >= standing.expiresAt) await followUp.bookkeeping.expireInterview(interviewId, Date.now());
    else await sendLink(interviewId, 'reminder');
  }
}

/** The reminder or a resend; one that fails after every retry is recorded as failed and not tried again. */
async function sendLink(interviewId: string, kind: LinkEmailKind): Promise<void> {
  try {
    await followUp.mail.sendInterviewLink(interviewId, kind);
  } catch (err) {
    await followUp.bookkeeping.failInterviewLink(interviewId, kind, reason(err));
  }
}

/**
 * Transcribes the recorded answers (one that cannot be is left unassessed), then assesses the interview; the
 * workflow shows it `assessing` meanwhile, then `done`, the status its standing read.
 */
async function assess(
  interviewId: string,
  recorded: number[],
  setStatus: (s: InterviewStage) => void,
  done: InterviewStage,
): Promise<void> {
  setStatus('assessing');
  try {
    // The transcripts stay in the database, with the answers an erasure removes: the history carries only
    // ids and whether a transcript was kept (docs/erasure.md).
    await Promise.all(recorded.map((index) => assessment.transcribeAnswer(interviewId, index).catch(() => false)));
    await assessment.assessInterview(interviewId);
  } catch (err) {
    await assessment.failAssessment(interviewId, `The interview could not be assessed: ${reason(err)}`);
  }
  setStatus(done);
}

function reason(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : String(cause);
}

/** The start of an invitation's workflow under its deterministic id. */
export function interviewStart(interview: CandidateResource): WorkflowStart {
  return workflowStart(interviewWorkflow, {
    workflowId: interview.workflow_id,
    args: [{ interviewId: interview._id }],
    searchAttributes: [...candidateSearchAttributes(interview), { key: InterviewStatusKey, value: 'queued' }],
    // Ids only: a history keeps nothing of the person that an erasure would have to reach (docs/erasure.md).
    summary: `Interview invitation for candidate ${interview.candidate_id} (${interview.ats_job_id})`,
  });
}
